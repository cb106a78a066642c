/**
 * Serialised answers, kept until the model they were written from changes: a hot GET is a map
 * lookup and a string write, and the JSON is built at most once per change, not per request.
 */
export class TextCache {
  private readonly entries = new Map<string, { version: string | number; text: string }>();

  get(key: string, version: string | number, render: () => string): string {
    const entry = this.entries.get(key);
    if (entry !== undefined && entry.version === version) return entry.text;
    const text = render();
    this.entries.set(key, { version, text });
    return text;
  }
}
