/** /403: the page itself is components/Forbidden.tsx, which pages that refuse in place show too. */
export { default } from '../../components/Forbidden';
