/**
 * `npm run keys:rotate [-- --yes]`
 *
 * Replaces the key that signs checkpoints and receipts (DATA_DIR/signing-key.pem) with a new one,
 * endorsed by the old, and records the rotation in the log. What the old key signed still verifies.
 */
import { CommandHandler } from '../engine/application/command-handler';
import { DomainError } from '../engine/domain';
import { loadConfig } from '../api/config';
import { rotateSigningKey } from '../api/integrity/key-rotation';
import { signingKeyFile } from '../api/integrity/signer';
import { openInfrastructure } from '../api/infrastructure';
import { CliError, confirmOrRefuse, parseCommandLine, refuseUnconfirmable, runCli } from './cli';

const USAGE = `Usage: npm run keys:rotate [-- --yes]

Replaces the Ed25519 key that signs checkpoints and receipts (DATA_DIR/signing-key.pem) with a new
one. The log records the new key, endorsed by the old one's signature, and the old key's retirement,
in one append; /.well-known/provenance-keys.json lists both. What the old key signed still
verifies. A running API on the same DATA_DIR switches to the new key within seconds; on the embedded
default, stop the API first: this refuses while it runs.

Options:
  --yes        rotate without asking
  -h, --help   show this help`;

runCli(async () => {
  const values = parseCommandLine(process.argv.slice(2), { yes: { type: 'boolean' } }, USAGE);
  if (!values) return;
  const config = loadConfig();
  if (config.signingKey) throw new CliError('SIGNING_KEY is set: this process\'s key comes from the configuration. Put the new key there; the API records it at start.');
  refuseUnconfirmable('Rotate the signing key.', values.yes);
  await confirmOrRefuse(`Replace the signing key in ${signingKeyFile(config.dataDir)} and retire the old one?`, values.yes);
  const infrastructure = await openInfrastructure(config);
  try {
    const rotation = await rotateSigningKey({ commands: new CommandHandler(infrastructure.eventStore), clock: () => new Date() }, config.dataDir).catch((error: unknown) => {
      throw error instanceof DomainError ? new CliError(`${error.message}: nothing was changed`) : error;
    });
    console.log(`Retired ${rotation.retired}; signing with ${rotation.added} from now on.`);
  } finally {
    await infrastructure.close();
  }
});
