// The extension's channel health: one ChannelHealth (src/core/channels/channelHealth.ts) kept in
// globalState, so the figures survive reloads. Figures only (times, counts, error kinds),
// bounded by the core's limits. Also makes the per-request failover client that measures.
import * as vscode from 'vscode';
import type { ChannelChoice } from '../core/catalogue/modelCatalogue';
import { FailoverClient, type ChannelSwitch } from '../core/channels/channelFailover';
import { ChannelHealth, formatHealth, type HealthSample, type HealthSummary } from '../core/channels/channelHealth';
import type { Channel, GatewayClient } from '../core/client/types';

export const HEALTH_STATE_KEY = 'modelgate.channelHealth';

/** The part of vscode.Memento the store uses (globalState). */
export interface HealthMemento {
  get(key: string): unknown;
  update(key: string, value: unknown): Thenable<void>;
}

export class ChannelHealthStore implements vscode.Disposable {
  private readonly health: ChannelHealth;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private saveTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly memento?: HealthMemento) {
    this.health = ChannelHealth.fromJSON(memento?.get(HEALTH_STATE_KEY));
  }

  record(model: string, channel: ChannelChoice, sample: HealthSample): void {
    this.health.record(model, channel, sample);
    this.changed.fire();
    // one write per burst of samples (a failed attempt and its retry come close together)
    this.saveTimer ??= setTimeout(() => this.save(), 200);
  }

  /** Forgets every measurement ("Modelgate: Reset Channel Health"), e.g. after a network change. */
  clear(): void {
    this.health.clear();
    this.changed.fire();
    this.save();
  }

  summary(model: string, channel: ChannelChoice): HealthSummary {
    return this.health.summary(model, channel);
  }

  /** "p50 first token 0.8 s · p90 1.4 s · 62 tok/s · 1 error in 40" or "not measured yet". */
  line(model: string, channel: ChannelChoice): string {
    return formatHealth(this.summary(model, channel));
  }

  /** A client for one answer: fails over along `fallbackChannels` and records every attempt here. */
  client(client: Pick<GatewayClient, 'streamChat'>, fallbackChannels: readonly Channel[], onSwitch?: (change: ChannelSwitch) => void): FailoverClient {
    return new FailoverClient(client, { fallbackChannels, record: (m, c, s) => this.record(m, c, s), onSwitch });
  }

  private save(): void {
    this.saveTimer = undefined;
    void this.memento?.update(HEALTH_STATE_KEY, this.health.toJSON());
  }

  dispose(): void {
    if (this.saveTimer) {
      clearTimeout(this.saveTimer);
      this.save();
    }
    this.changed.dispose();
  }
}
