/** `npm run projections:rebuild`: drop the read models and replay the event log into them. */
import { loadConfig } from '../api/config';
import { openInfrastructure } from '../api/infrastructure';
import { createKysely } from '../engine/postgres/kysely-dialect';
import { rebuildReadModels, type ReadModels } from '../projections';
import { confirmOrRefuse, parseCommandLine, progressCounter, refuseUnconfirmable, runCli } from './cli';

const USAGE = `Usage: npm run projections:rebuild -- [--yes]

Drops the read models (listings, auctions, bids, NFC tags) and replays the whole event log into
them, in the database the API uses (DATABASE_URL, else PGlite under DATA_DIR). The log itself is
not touched. Stop the API first: on the embedded default this refuses while it runs.

Options:
  --yes        go ahead without asking (needed when not run from a terminal)
  -h, --help   show this help`;

runCli(async () => {
  const options = parseCommandLine(process.argv.slice(2), { yes: { type: 'boolean' } }, USAGE);
  if (!options) return;
  refuseUnconfirmable('projections:rebuild drops the read models and replays the event log into them.', options.yes);
  const config = loadConfig();
  const infrastructure = await openInfrastructure(config);
  try {
    const where = infrastructure.description.database;
    await confirmOrRefuse(`Drop the read models in ${where} and replay the event log into them?`, options.yes);
    const replayed = progressCounter('Events replayed');
    await rebuildReadModels(infrastructure.eventStore, createKysely<ReadModels>(infrastructure.database), { eventsApplied: replayed.add });
    const { count, seconds, perSecond } = replayed.finish();
    console.log(`Read models rebuilt from the event log: ${count.toLocaleString('en-US')} events in ${seconds.toFixed(1)} s (${Math.round(perSecond).toLocaleString('en-US')}/s), ${where}.`);
  } finally {
    await infrastructure.close();
  }
});
