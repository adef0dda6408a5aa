// Budgets and the spending view in the real web workbench (VS Code 1.139 in headless Chromium):
// with a tiny daily budget, the second chat send opens the budget question (a modal with
// "Send Once" and "Raise Budget"); Cancel sends nothing and leaves the text in the input. Then
// "Modelgate: Show Spending" draws today's total. Screenshots of both go to
// test-results/screenshots/.
import * as assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { repoRoot } from '../harness/paths';
import { gatewaySettings, useGatewayWorkbench, type Workbench } from './workbench';

const KEY = 'sk-e2e-spend-3f9a01';

describe('e2e spending: budget question and Show Spending in the web workbench', function () {
  this.timeout(240_000);

  const fixture = useGatewayWorkbench(KEY, (gw) => ({
    settings: {
      ...gatewaySettings(gw),
      'modelgate.budget.dailyUsd': 0.0001,
      'workbench.colorTheme': 'Default Light Modern',
    },
    viewport: { width: 1280, height: 860 },
  }));

  const gw = () => fixture.gateway();

  let wb: Workbench;
  let chat: Frame;
  const shots = join(repoRoot(), 'test-results', 'screenshots');
  const chatRequests = () => gw().requests.filter((r) => r.server === 'api' && r.path.endsWith('/chat/completions')).length;

  it('asks before a send once the daily budget is used up; Cancel keeps the text and sends nothing', async () => {
    wb = fixture.get();
    chat = await wb.openChat();
    const message = chat.getByRole('textbox', { name: 'Message' });
    await wb.setKey(KEY);

    await message.fill('hello [[words:40]]');
    await chat.getByRole('button', { name: 'Send', exact: true }).click();
    await chat.getByRole('article', { name: 'Assistant' }).first().waitFor({ state: 'visible', timeout: 30_000 });
    await chat.getByRole('button', { name: 'Stop', exact: true }).waitFor({ state: 'hidden', timeout: 60_000 });
    // The answer's article shows before its request reaches the gateway: count once it has.
    for (let i = 0; i < 100 && chatRequests() === 0; i++) await wb.page.waitForTimeout(100);
    assert.ok(chatRequests() >= 1, 'the first question reached the gateway');
    const sent = chatRequests();

    await message.fill('a second question');
    await chat.getByRole('button', { name: 'Send', exact: true }).click();
    const dialog = wb.page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible', timeout: 30_000 });
    const text = await dialog.innerText();
    assert.match(text, /Daily budget of \$0\.0001 \(modelgate\.budget\.dailyUsd\) reached/);
    assert.match(text, /Send Once/);
    assert.match(text, /Raise Budget/);
    mkdirSync(shots, { recursive: true });
    await wb.page.screenshot({ path: join(shots, 'budget-question.png') });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden', timeout: 10_000 });
    await chat.waitForFunction(() => (document.querySelector('textarea') as HTMLTextAreaElement | null)?.value === 'a second question', undefined, {
      timeout: 10_000,
    });
    assert.equal(
      chatRequests(),
      sent,
      `nothing was sent: ${JSON.stringify(
        gw()
          .requests.filter((r) => r.path.endsWith('/chat/completions'))
          .map((r) => (r.body as { messages?: { content?: unknown }[] }).messages?.at(-1)?.content),
      )}`,
    );
  });

  it("Show Spending draws today's total, by model and source, with bars", async () => {
    await wb.runCommand('Modelgate: Show Spending');
    const page = await wb.webviewFrame('#today', { timeoutMs: 60_000 });
    const total = await page.locator('#today .total').innerText();
    assert.match(total, /^\$\d/);
    const today = await page.locator('#today').innerText();
    assert.match(today, /flagship-text/);
    assert.match(today, /chat panel/);
    assert.ok((await page.locator('#today svg rect').count()) > 0, 'bars drawn');
    assert.match(await page.locator('#budgets').innerText(), /Daily budget .* reached/);
    await wb.page.screenshot({ path: join(shots, 'spending.png') });
  });
});
