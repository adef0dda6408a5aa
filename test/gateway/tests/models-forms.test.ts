// GET /models in the metadata forms of real servers (models.ts names the document of each):
// what the simulator lists in each form is what the client's parser reads back.
import * as assert from 'node:assert/strict';
import { parseModelFacts } from '../../../src/core/catalogue/modelFacts';
import { startGateway, type ModelsForm } from '../index';
import { SIM_CHAT_MODELS } from '../models';
import { PRICE_CARD } from '../prices';
import { KEY } from './helpers';

async function listed(form: ModelsForm, extraModels: unknown[] = []): Promise<unknown[]> {
  const gw = await startGateway({ modelsForm: form, extraModels, keys: { [KEY]: { balance: 1 } } });
  try {
    const res = await fetch(`${gw.baseUrl}/models`, { headers: { Authorization: `Bearer ${KEY}` } });
    assert.equal(res.status, 200);
    return ((await res.json()) as { data: unknown[] }).data;
  } finally {
    await gw.close();
  }
}

describe('gateway simulator: /models metadata forms', function () {
  this.timeout(30_000);

  it('minimal (the interface document): ids only, no facts', async () => {
    const { models } = parseModelFacts(await listed('minimal'));
    assert.deepEqual(
      models.find((m) => m.id === 'flagship-text'),
      { id: 'flagship-text' },
    );
  });

  for (const form of ['openrouter', 'vllm', 'litellm'] as const) {
    it(`${form}: the context window of every chat model reads back${form === 'vllm' ? '' : ', with its output limit, image input and the stable price'}`, async () => {
      const { models, problems } = parseModelFacts(await listed(form));
      assert.deepEqual(problems, []);
      for (const sim of SIM_CHAT_MODELS) {
        const facts = models.find((m) => m.id === sim.id)!;
        assert.equal(facts.contextWindow, sim.contextWindow, sim.id);
        if (form === 'vllm') continue;
        assert.equal(facts.maxOutput, sim.maxOutput, sim.id);
        assert.equal(facts.imageInput, sim.imageInput, sim.id);
        const price = PRICE_CARD.chat[sim.id]!.stable;
        assert.equal(facts.price?.input, price.input, sim.id);
        assert.equal(facts.price?.output, price.output, sim.id);
      }
    });
  }

  it('extra raw entries (bad values included) are listed as given', async () => {
    const data = await listed('minimal', [{ id: 'bad', context_length: -1 }]);
    assert.deepEqual(data.at(-1), { id: 'bad', context_length: -1 });
  });
});
