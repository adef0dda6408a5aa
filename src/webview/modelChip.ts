// The composer's model chip: "flagship-text [icon] stable", a button that opens the model and
// channel picker; for a model that thinks, its reasoning effort follows the channel ("[bulb] high",
// "auto" when none is sent), where the picker has it too: under the model. At the default side-bar width (about 290 px) the whole text does not fit beside
// the attach buttons and Send, so it gives way in steps, measured in the real layout;
// the channel stays readable text at every step:
//   1. the channel (and the effort) go to a second line under the name, icon and word ("stacked");
//   2. the model name is elided in the middle ("long-c…tools"): the end of a model id (size,
//      variant, date) usually tells models of one family apart;
//   3. only when the channel's line alone is wider than the room, its word is abbreviated
//      ("econ."; the short names stay whole), and the name elided as little as then fits.
// The full model and channel stay in the button's accessible name and tooltip. Without layout
// (jsdom) or while hidden, the chip keeps its whole text on one line.
import { clear, h } from './dom';
import { strokeIcon } from './icons';
import { l10n } from './panelL10n';

/** One icon per channel the gateway offers (24x24 strokes). */
const CHANNEL_ICONS: Record<string, readonly string[]> = {
  // the gateway picks the channel
  default: ['M16 3h5v5', 'M4 20L21 3', 'M21 16v5h-5', 'M15 15l6 6', 'M4 4l5 5'],
  // straight to the provider
  direct: ['M4 12h15', 'M13 6l6 6-6 6'],
  // a shield: the steady channel
  stable: ['M12 2l8 3.5V11c0 5-3.4 9.3-8 11-4.6-1.7-8-6-8-11V5.5z'],
  // a price tag: the cheap channel
  economical: ['M20.6 13.4l-7.2 7.2a2 2 0 0 1-2.8 0L2 12V2h10l8.6 8.6a2 2 0 0 1 0 2.8z', 'M7 7h.01'],
};

/** A light bulb: how hard the model thinks (its reasoning effort). */
const EFFORT_ICON = ['M9 18h6', 'M10 22h4', 'M12 2a7 7 0 0 0-4 12.7V17h8v-2.3A7 7 0 0 0 12 2z'];

/** The effort as the chip shows it: the value sent, or "auto" when none is (the model decides). */
export function effortWord(effort: string): string {
  return effort === 'default' ? l10n.t('auto') : effort;
}

/** The channel's word where room is short: a long one abbreviated, the short ones ("stable", "direct", "default") whole. */
export function shortChannel(channel: string): string {
  if (channel === 'economical') return l10n.t('econ.');
  return [...channel].length > 7 ? `${[...channel].slice(0, 4).join('')}.` : channel;
}

/** `text` cut to `keep` characters around an ellipsis in the middle, the end favoured. */
export function elideMiddle(text: string, keep: number): string {
  const chars = [...text];
  if (keep >= chars.length) return text;
  const head = Math.max(1, Math.floor(keep / 2));
  const tail = Math.max(1, keep - head);
  return `${chars.slice(0, head).join('')}…${chars.slice(chars.length - tail).join('')}`;
}

export class ModelChip {
  readonly element: HTMLButtonElement;
  private name: HTMLElement | undefined;
  private channelWord: HTMLElement | undefined;
  private effortWord: HTMLElement | undefined;
  private model = '';
  private channel = '';
  private effort: string | undefined;
  /** what the last fit was measured for: the same text in the same room needs no new fit */
  private fitKey = '';
  private observer: ResizeObserver | undefined;

  constructor(
    private readonly doc: Document,
    onClick: () => void,
  ) {
    this.element = h(doc, 'button', {
      className: 'model-button',
      attrs: { type: 'button', title: l10n.t('Pick the model or channel') },
      on: { click: onClick },
    });
  }

  /** `effort`: the reasoning effort of a model that thinks (`default`: none sent); undefined for one that does not. */
  set(model: string, channel: string, effort?: string): void {
    if (model === this.model && channel === this.channel && effort === this.effort && this.name) return;
    this.model = model;
    this.channel = channel;
    this.effort = effort;
    const paths = channel ? CHANNEL_ICONS[channel] : undefined;
    this.name = h(this.doc, 'span', { className: 'model-name', text: model });
    this.channelWord = channel ? h(this.doc, 'span', { className: 'model-channel-text', text: channel }) : undefined;
    this.effortWord = effort ? h(this.doc, 'span', { className: 'model-effort-text', text: effortWord(effort) }) : undefined;
    const meta = [
      this.channelWord &&
        h(this.doc, 'span', { className: 'model-channel' }, [paths && strokeIcon(this.doc, `icon channel-icon channel-${channel}`, paths), this.channelWord]),
      this.effortWord && h(this.doc, 'span', { className: 'model-effort' }, [strokeIcon(this.doc, 'icon effort-icon', EFFORT_ICON), this.effortWord]),
    ].filter((e): e is HTMLElement => !!e);
    clear(this.element);
    this.element.append(this.name, ...(meta.length ? [h(this.doc, 'span', { className: 'model-meta' }, meta)] : []));
    const label = channel ? l10n.t('Model {0}, channel {1}', model, channel) : l10n.t('Model {0}', model);
    const effortLabel = effort ? l10n.t('reasoning effort {0}', effort === 'default' ? l10n.t('the model’s default') : effort) : '';
    this.element.setAttribute('aria-label', effort ? l10n.t('{0}, {1}', label, effortLabel) : label);
    this.element.title = effort
      ? l10n.t('{0}, {1}. Pick the model, channel or reasoning effort.', label, effortLabel)
      : channel
        ? l10n.t('Model {0}, channel {1}. Pick the model or channel.', model, channel)
        : l10n.t('Model {0}. Pick the model or channel.', model);
    this.fitKey = '';
    this.fit();
  }

  /** Fits the text into the room the composer bar leaves (see the top of the file). */
  fit(): void {
    const chip = this.element;
    const name = this.name;
    const bar = chip.parentElement;
    if (!name || !bar) return;
    this.observe(bar); // also catches the chip being shown (it has no room while hidden)
    if (chip.hidden || !chip.isConnected) return;
    // the room: the bar's width less what its other children take
    let others = 0;
    for (const child of bar.children) if (child !== chip) others += (child as HTMLElement).offsetWidth;
    const key = `${this.model}|${this.channel}|${this.effort ?? ''}|${bar.clientWidth}|${others}`;
    if (key === this.fitKey || bar.clientWidth === 0) return;
    this.fitKey = key;
    const word = this.channelWord;
    const effort = this.effortWord;
    const whole = (el: HTMLElement | undefined) => !el || el.scrollWidth <= el.clientWidth;
    const fits = () => chip.scrollWidth <= chip.clientWidth && whole(name) && whole(word) && whole(effort);
    chip.classList.remove('stacked');
    name.textContent = this.model;
    if (word) word.textContent = this.channel;
    if (fits()) return;
    if (word || effort) {
      chip.classList.add('stacked');
      if (fits() || this.elide(fits)) return;
      // the channel's line alone is wider than the room: its word abbreviated
      if (word) word.textContent = shortChannel(this.channel);
      name.textContent = this.model;
      if (fits()) return;
    }
    this.elide(fits);
  }

  /** The longest middle elision of the model name that fits (binary search over the characters kept); false when none does. */
  private elide(fits: () => boolean): boolean {
    const name = this.name!;
    const length = [...this.model].length;
    let lo = 2;
    let hi = length - 1;
    let best = 2;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      name.textContent = elideMiddle(this.model, mid);
      if (fits()) {
        best = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    name.textContent = elideMiddle(this.model, best);
    return fits();
  }

  /** Fits again when the panel or the bar's other controls change size (Stop shows, Send's label goes). */
  private observe(bar: HTMLElement): void {
    const RO = this.doc.defaultView?.ResizeObserver;
    if (this.observer || !RO) return;
    this.observer = new RO(() => this.fit());
    this.observer.observe(bar);
    for (const child of bar.children) this.observer.observe(child);
  }
}
