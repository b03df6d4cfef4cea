/** `npm run projections:rebuild`: drop the read models and replay the event log into them. */
import { loadConfig } from '../api/config';
import { openInfrastructure } from '../api/infrastructure';
import { createKysely } from '../engine/postgres/kysely-dialect';
import { rebuildReadModels, type ReadModels } from '../projections';

const config = loadConfig();
const infrastructure = await openInfrastructure(config);
const started = performance.now();
try {
  await rebuildReadModels(infrastructure.eventStore, createKysely<ReadModels>(infrastructure.database));
  console.log(`Read models rebuilt from the event log in ${Math.round(performance.now() - started)} ms (${infrastructure.description.database}).`);
} finally {
  await infrastructure.close();
}
