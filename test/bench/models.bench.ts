// A gateway that lists 500 models (OpenRouter's size, in OpenRouter's form): how long from the
// /models body to the catalogue and the picker rows' data (the target: under 50 ms;
// a figure, not an assertion). The QuickPickItem strings themselves need vscode and are not timed.
import { ModelCatalogue } from '../../src/core/catalogue/modelCatalogue';
import { parseModelFacts } from '../../src/core/catalogue/modelFacts';
import { figure } from './report';

function openRouterList(n: number): string {
  const data = Array.from({ length: n }, (_, i) => ({
    id: `vendor-${i % 40}/model-${i}`,
    name: `Vendor ${i % 40}: Model ${i}`,
    created: 1_700_000_000 + i,
    description: 'A model. '.repeat(30),
    context_length: 8192 * (1 + (i % 64)),
    architecture: { modality: 'text+image->text', input_modalities: i % 3 ? ['text'] : ['text', 'image'], output_modalities: ['text'], tokenizer: 'Other' },
    pricing: {
      prompt: (0.0000001 * (1 + (i % 50))).toFixed(10),
      completion: (0.0000004 * (1 + (i % 50))).toFixed(10),
      request: '0',
      image: '0',
      input_cache_read: '0.00000001',
    },
    top_provider: { context_length: 8192 * (1 + (i % 64)), max_completion_tokens: 4096, is_moderated: false },
    per_request_limits: null,
    supported_parameters: ['max_tokens', 'temperature', 'top_p', 'tools', 'tool_choice', ...(i % 5 ? [] : ['reasoning'])],
  }));
  return JSON.stringify({ data });
}

export function benchModelList(): void {
  const body = openRouterList(500);
  const run = () => {
    const { models } = parseModelFacts((JSON.parse(body) as { data: unknown[] }).data);
    const cat = ModelCatalogue.build({ gatewayModels: models, overrides: { 'vendor-1/model-1': { temperature: 0.2 } } });
    // what the picker reads per row: the price and its source, the limits
    let chars = 0;
    for (const m of cat.chatModels())
      chars += `${cat.price(m.id, 'default')?.input ?? ''}${cat.priceSource(m.id, 'default') ?? ''}${m.contextWindow}${m.maxOutput}`.length;
    return chars;
  };
  for (let i = 0; i < 5; i++) run(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < 30; i++) {
    const t = performance.now();
    run();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)]!;
  figure({
    name: 'models.parse500AndPickerRows',
    value: median,
    unit: 'ms',
    peerName: 'target',
    peer: 50,
    target: '< 1',
    note: `500 OpenRouter-form entries (${(body.length / 1024).toFixed(0)} KB): JSON.parse + facts + catalogue + picker row data; median of 30`,
  });
}
