import type { Settings } from '../../config/index.js';

/** The settings in force, and the parts that take each new set, in the order they registered. */
export class SettingsHub {
  private readonly appliers: ((settings: Settings) => void)[] = [];

  constructor(private value: Settings) {}

  readonly current = (): Settings => this.value;

  onApply(applier: (settings: Settings) => void): void {
    this.appliers.push(applier);
  }

  apply(settings: Settings): void {
    this.value = settings;
    for (const applier of this.appliers) applier(settings);
  }
}
