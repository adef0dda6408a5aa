// Which of VS Code's tools each conversation lets the model use (the panel's picker), and the
// ones the user allowed for the whole conversation. None is on until the user picks it, in the
// picker or in `modelgate.chat.vscodeTools` (user settings: the tools on in every conversation
// until switched off there). Kept for the window's life; a reload starts from the setting again.
// No runtime `vscode` import: unit-tested in plain Node.

export class VscodeToolChoice {
  readonly #on = new Map<string, Set<string>>();
  readonly #always = new Map<string, Set<string>>();

  constructor(private readonly defaults: () => readonly string[]) {}

  /** Whether tool `name` (VS Code's name) is on in conversation `conversationId`. */
  isOn(conversationId: string, name: string): boolean {
    return (this.#on.get(conversationId) ?? new Set(this.defaults())).has(name);
  }

  /** Switches the tool on or off for the conversation; returns whether it is on now. */
  toggle(conversationId: string, name: string): boolean {
    const set = this.#on.get(conversationId) ?? new Set(this.defaults());
    const on = !set.has(name);
    if (on) set.add(name);
    else set.delete(name);
    this.#on.set(conversationId, set);
    return on;
  }

  /** The user chose "Always allow this tool in this conversation". */
  allowAlways(conversationId: string, name: string): void {
    const set = this.#always.get(conversationId) ?? new Set<string>();
    set.add(name);
    this.#always.set(conversationId, set);
  }

  isAlwaysAllowed(conversationId: string, name: string): boolean {
    return this.#always.get(conversationId)?.has(name) ?? false;
  }

  /** The conversation went away. */
  forget(conversationId: string): void {
    this.#on.delete(conversationId);
    this.#always.delete(conversationId);
  }
}
