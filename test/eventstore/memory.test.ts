import { InMemoryEventStore } from '../../engine/eventstore/memory';
import { eventStoreContract } from './contract';

eventStoreContract('in-memory', async () => ({ store: new InMemoryEventStore() }));
