/** Invalid configuration: start-up stops and prints this message (naming the variable and what is allowed). */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`Invalid configuration ${variable}: ${message}`);
    this.name = 'ConfigError';
  }
}
