/** Why a secret could not be read: `reason` never holds a secret value; `outage` says the provider itself is down. */
export class SecretFailure extends Error {
  constructor(
    readonly reason: string,
    readonly outage: boolean,
  ) {
    super(reason);
  }
}
