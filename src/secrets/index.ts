// Secrets: providers, resolution into commands, the secrets API model. What other folders may use of it.
export { SECRETS_DUMP_TYPES, isSecretsResource, secretsDumpUrl, secretsPut } from './cli.js';
export { SecretFailure } from './failure.js';
export { CREDENTIAL_MASK, keepCredential, type Credential, type CredentialDestination } from './kept-credential.js';
export {
  API_VERSION,
  ENV_PROVIDER_NAME,
  ENV_TYPE,
  EXTERNAL_TYPE,
  canonicalProviderType,
  PROVIDER_KIND,
  SECRET_KIND,
  SECRET_USERS,
  providerForRead,
  providerProblem,
  secretProblem,
  withClientDefaults,
  type SecretReference,
  type SecretsProvider,
  type VaultClientSpec,
} from './model.js';
export { OutageReports, outageResult } from './outage.js';
export { SecretsResolver, type SecretsLookup } from './resolver.js';
export { vaultPathOf } from './vault-provider.js';
export { withSecrets } from './with-secrets.js';
export { secretsDeliveryFor, type ClientConnection, type SecretsDelivery } from './remote.js';
export { RemoteSecrets } from './remote-delivery.js';
export { withWithheldSecretsLogged } from './broker-withheld.js';
