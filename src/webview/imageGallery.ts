// Images a tool saved into the workspace, shown inline in the answer. The answer's
// images part carries only workspace paths; the host resolves them and posts an `images` message
// with a webview resource URL per file (src/chat/view/chatImages.ts). Only such a URL ever becomes
// an <img src> (checked again here: never data:, never another host, and the page's CSP allows
// images from the webview's own resource origin only); an image the host could not find, or that
// fails to load, is shown as text saying so. A click posts the host's `openId`, never a path.
import type { ImagesPart, ShownImage } from '../chat/protocol';
import { WEBVIEW_RESOURCE_URL } from '../core/webviewResource';
import { clear, h } from './dom';
import { l10n } from './panelL10n';

export class ImageGallery {
  readonly element: HTMLElement;

  constructor(
    private readonly doc: Document,
    readonly part: Pick<ImagesPart, 'id' | 'paths'>,
    shown?: readonly ShownImage[],
  ) {
    this.element = h(doc, 'div', {
      className: 'image-gallery',
      attrs: { role: 'group', 'aria-label': l10n.t('Generated images'), 'data-images-part': part.id },
    });
    this.show(shown ?? part.paths.map((path): ShownImage => ({ state: 'pending', path })));
  }

  /** Shows the images as the host resolved them (or waiting for that: `pending`). */
  show(images: readonly ShownImage[]): void {
    clear(this.element);
    for (const image of images) this.element.appendChild(this.tile(image));
  }

  private tile(image: ShownImage): HTMLElement {
    const doc = this.doc;
    const caption = h(doc, 'figcaption', { className: 'image-caption', text: image.path, attrs: { title: image.path } });
    if (image.state === 'shown' && WEBVIEW_RESOURCE_URL.test(image.src)) {
      const img = h(doc, 'img', { className: 'image-thumb', attrs: { alt: image.path, src: image.src } });
      const open = h(
        doc,
        'button',
        {
          className: 'image-open',
          attrs: { type: 'button', 'data-open-image': image.openId, title: l10n.t('Open {0}', image.path), 'aria-label': l10n.t('Open {0}', image.path) },
        },
        [img],
      );
      const figure = h(doc, 'figure', { className: 'image-tile' }, [open, caption]);
      // deleted between the host's check and the load, or not an image after all: say so in text
      img.addEventListener('error', () => figure.replaceWith(this.missing(image.path, l10n.t('The image {0} could not be loaded.', image.path))));
      return figure;
    }
    if (image.state === 'pending') {
      return h(doc, 'figure', { className: 'image-tile image-pending' }, [
        h(doc, 'div', { className: 'image-placeholder', text: l10n.t('Loading image…') }),
        caption,
      ]);
    }
    return this.missing(image.path, l10n.t('Image not found: {0}. It was deleted or moved, or it is not in this workspace.', image.path));
  }

  private missing(path: string, text: string): HTMLElement {
    return h(this.doc, 'figure', { className: 'image-tile image-missing', attrs: { 'data-image-missing': path } }, [
      h(this.doc, 'div', { className: 'image-placeholder', text, attrs: { role: 'note' } }),
    ]);
  }
}
