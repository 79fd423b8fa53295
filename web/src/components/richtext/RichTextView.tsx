/**
 * Shows rich text the server sanitised and resolved (internal/richtext: storage images carry a
 * fresh signed src). The HTML is never built in the browser from user input: it is the
 * server's answer, already cleaned by its sanitiser.
 */
import './richtext.css';

export interface RichTextViewProps {
  html?: string | null;
  testId?: string;
}

export default function RichTextView({ html, testId }: RichTextViewProps) {
  return <div className="rt-body" data-testid={testId} dangerouslySetInnerHTML={{ __html: html ?? '' }} />;
}
