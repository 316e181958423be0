// The Sensu Core version checkbridge speaks as: /info, keepalives, registered clients and broker queue names carry it.
export const LEGACY_VERSION = '1.9.0';
