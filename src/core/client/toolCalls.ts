// Streamed tool calls arrive as `delta.tool_calls[]` fragments keyed by `index`: `id` and
// `function.name` once, `function.arguments` in pieces that parse as JSON only when joined.
// Parallel calls interleave, so each index gets its own accumulator.
import { protocolError } from './gatewayError';
import type { ToolCall } from './types';
import type { ToolCallDelta } from './wire';

interface PartialCall {
  id: string;
  name: string;
  arguments: string;
}

export class ToolCallAssembler {
  private readonly calls = new Map<number, PartialCall>();
  private syntheticIds = 0;
  private lastIndex: number | undefined;

  get isEmpty(): boolean {
    return this.calls.size === 0;
  }

  add(fragments: readonly ToolCallDelta[]): void {
    for (const fragment of fragments) {
      const index = fragment.index ?? this.indexWithout(fragment.id);
      let call = this.calls.get(index);
      if (!call) {
        call = { id: '', name: '', arguments: '' };
        this.calls.set(index, call);
      }
      if (fragment.id && !call.id) call.id = fragment.id;
      const fn = fragment.function;
      if (fn?.name && !call.name) call.name = fn.name;
      if (fn?.arguments) call.arguments += fn.arguments;
      this.lastIndex = index;
    }
  }

  /**
   * Some servers leave out `index`: a fragment with a new id starts a call, one with a known
   * id or none continues that call or the latest one.
   */
  private indexWithout(id: string | null | undefined): number {
    if (id) {
      for (const [index, call] of this.calls) if (call.id === id) return index;
      return this.calls.size === 0 ? 0 : Math.max(...this.calls.keys()) + 1;
    }
    return this.lastIndex ?? 0;
  }

  /** The complete calls in index order; empties the assembler. */
  take(): ToolCall[] {
    const ordered = [...this.calls.entries()].sort(([a], [b]) => a - b);
    this.calls.clear();
    this.lastIndex = undefined;
    return ordered.map(([index, call]) => {
      if (!call.name) throw protocolError(`tool call ${index} has no function name`);
      // The id is needed to answer the call; a server that omits it gets a local one.
      return { id: call.id || `call_local_${++this.syntheticIds}_${index}`, name: call.name, arguments: call.arguments };
    });
  }
}
