/** The level the server compares for each control type (internal/access/levels.go), from the signed-in role; null: never. */
import { useSession } from '../models/session';
import { CTL } from '../services/fleet';
import type { Levels } from '../utils/fleet';

export function useControlLevels(): (type: number) => Levels | null {
  const { session } = useSession();
  const root = !!session?.user.root;
  const role = session?.role;
  return (type) => {
    if (type === CTL.getConfiguration) return { root, level: role?.cfgDownloadLevel ?? 5 };
    return { root, level: role?.paramLevel ?? 5 };
  };
}
