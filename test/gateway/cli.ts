// `npm run sim`: the simulator as a separate process for the demo and end-to-end tests.
// Realistic per-channel latency and random failures are on; the image host listens on port+1.
//   node out/gateway/cli.js [--port 8787] [--no-failures] [--no-latency] [--seed N]
//   PORT=9000 node out/gateway/cli.js
import { PRICE_CARD } from './prices';
import { DEFAULT_CHANNEL } from './models';
import { startGateway } from './index';
import { DEMO_BALANCE_USD, DEMO_KEY } from './demo-key';

function argValue(name: string): string | undefined {
  const args = process.argv.slice(2);
  const i = args.indexOf(name);
  if (i >= 0) return args[i + 1];
  const inline = args.find((a) => a.startsWith(`${name}=`));
  return inline?.slice(name.length + 1);
}

function settingsSnippet(baseUrl: string): string {
  const models: Record<string, unknown> = {};
  for (const [id, byChannel] of Object.entries(PRICE_CARD.chat)) {
    models[id] = { prices: { default: byChannel[DEFAULT_CHANNEL], ...byChannel } };
  }
  return JSON.stringify({ 'modelgate.baseUrl': baseUrl, 'modelgate.models': models }, null, 2);
}

async function main(): Promise<void> {
  const portText = argValue('--port') ?? process.env.PORT ?? '8787';
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65534) throw new Error(`invalid port: ${portText}`);
  const seedText = argValue('--seed');
  const gateway = await startGateway({
    port,
    imagePort: port === 0 ? 0 : port + 1,
    keys: { [DEMO_KEY]: { balance: DEMO_BALANCE_USD } },
    latency: process.argv.includes('--no-latency') ? 'none' : 'realistic',
    failures: !process.argv.includes('--no-failures'),
    seed: seedText === undefined ? undefined : Number(seedText),
  });

  const out = process.stdout;
  out.write(`Modelgate gateway simulator\n`);
  out.write(`  base URL:   ${gateway.baseUrl}\n`);
  out.write(`  image host: ${gateway.imageHostUrl}\n`);
  out.write(`  demo key:   ${DEMO_KEY}   (balance $${DEMO_BALANCE_USD}; a simulator-only key, set it with "Modelgate: Set API Key")\n`);
  out.write(`  control:    POST ${gateway.baseUrl.replace(/\/v1$/, '')}/__sim/{fault,balance,reset}, GET /__sim/requests\n`);
  out.write(`\nUser settings.json (paste):\n${settingsSnippet(gateway.baseUrl).replace(/^\{\n|\n\}$/g, '')}\n\n`);
  out.write(
    `Latency: realistic per channel. Failures: ${process.argv.includes('--no-failures') ? 'off' : 'on (direct 3% 502, stable 1% 503, economical 10% 503)'}.\n`,
  );
  out.write(`Ctrl+C to stop.\n`);

  const stop = () => {
    void gateway.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((e: unknown) => {
  process.stderr.write(`gateway simulator failed to start: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
