/** The pure engine: deciders and their messages. No I/O, no clock, no randomness. */
export * from './shared/decider';
export * from './shared/errors';
export * from './shared/messages';
export * from './shared/money';
export * from './shared/time';
export * from './auction/rules';
export * from './auction/proxy-bidding';
export * from './auction/messages';
export * from './auction/auction';
export * from './auction/summary';
export * from './auction/timing';
export * from './listing/listing';
export * from './nfc-tag/identifiers';
export * from './nfc-tag/nfc-tag';
export * from './binding';
export * from './publication';
export * from './listing/slug-claim';
