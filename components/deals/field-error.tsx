/**
 * Validation messages under an input (the id matches the input's aria-describedby). The
 * API's messages are relative ("must be more than 0"); `label` makes them sentences.
 */
export function FieldError({
  id,
  label,
  messages,
}: {
  id: string;
  label: string;
  messages: string[];
}) {
  if (messages.length === 0) return null;
  const sentence = (m: string) => (/^[a-z]/.test(m) ? `${label} ${m}` : m);
  return (
    <span id={id} className="field-error" role="alert">
      {messages.map(sentence).join(" · ")}
    </span>
  );
}
