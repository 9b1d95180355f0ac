/** Text for HTML content and attribute values. */
export const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** JSON inside `<script type="application/json">`: no `</script>` or `<!--` can end it early. */
export const scriptJson = (v: unknown): string => JSON.stringify(v).replace(/</g, '\\u003c');
