// Watching the configuration sources: edits, replaced directories and SIGHUP reloads apply live. Loaded by the daemon only.
export { watchSettings, diffSettings, type SettingsDiff, type SettingsWatcher } from './settings-watcher.js';
