import { useMachine } from '@xstate/react';
import { useEffect, useId, useRef } from 'react';
import { useDropzone, type FileRejection } from 'react-dropzone';
import type { AnyBidReceipt } from '../../../../api/contracts/receipts';
import { formatUsd } from '../../lib/money';
import { formatReceiptTime, shortHash } from '../../lib/receipts/receipt-check';
import { receiptCheckMachine } from '../../lib/receipts/receipt-check-machine';
import { ReceiptCheckResult } from '../../lib/receipts/ReceiptCheckResult';
import { verifyPageMachine, type ReceiptsSource } from './verify-page-machine';
import './verify.css';

const KEYS_PATH = '/.well-known/provenance-keys.json';

function refusalMessage(rejected: readonly FileRejection[]): string {
  const [first] = rejected;
  if (rejected.length > 1) return 'Choose one file: the receipts file as it was downloaded.';
  return `Choose the receipt’s .json file${first ? ` (${first.file.name} is not one)` : ''}.`;
}

/** /verify: anyone checks a bidder's receipt here, in their own browser, with nothing but public data. */
export function VerifyPage() {
  const [snapshot, send] = useMachine(verifyPageMachine);
  const { receipts, source, reading, text, fileError, textError } = snapshot.context;
  const readingFile = snapshot.matches('readingFile');
  const ids = useId();
  const { getRootProps, getInputProps, open, isDragActive } = useDropzone({
    accept: { 'application/json': ['.json'] },
    multiple: false,
    // The button opens the chooser; the zone takes drops only, so there is one control to reach.
    noClick: true,
    noKeyboard: true,
    disabled: readingFile,
    onDrop: (accepted, rejected) => {
      const [chosen] = accepted;
      if (chosen) send({ type: 'FILE.CHOSEN', file: chosen });
      else if (rejected.length > 0) send({ type: 'FILE.REFUSED', message: refusalMessage(rejected) });
    },
  });

  return (
    <div className="verify">
      <h1 className="verify__title">Check a receipt</h1>
      <p className="muted verify__intro">
        Each bid placed on Provenance comes with a signed receipt. Checking one here proves, in your own browser, that Provenance signed it
        with one of its <a href={KEYS_PATH}>published keys</a> and that the bid is in the auction’s signed log. Only the receipt’s bid and
        auction ids are sent, to fetch the proof.
      </p>

      <section className="card verify__input" aria-labelledby={`${ids}-input`}>
        <h2 id={`${ids}-input`} className="verify__section-title">
          Your receipt
        </h2>
        <div className="verify__sources">
          <div className="verify__source">
            <div {...getRootProps({ className: `verify__dropzone${isDragActive ? ' verify__dropzone--active' : ''}${fileError ? ' verify__dropzone--invalid' : ''}` })}>
              <input {...getInputProps({ 'aria-label': 'Receipt file' })} data-testid="receipt-file" />
              <p className="verify__drop-text">{isDragActive ? 'Drop the file here' : 'Drop a receipts file here, or'}</p>
              <button type="button" className="button" onClick={open} disabled={readingFile} aria-describedby={`${ids}-file-hint${fileError ? ` ${ids}-file-error` : ''}`}>
                {readingFile ? 'Reading…' : 'Choose file'}
              </button>
              <p id={`${ids}-file-hint`} className="field__hint">
                The .json file “Download receipts” saved: one receipt or a list of them
              </p>
            </div>
            {fileError && (
              <p id={`${ids}-file-error`} className="field__error verify__error" role="alert" data-testid="file-error">
                {fileError}
              </p>
            )}
          </div>

          <form
            className="verify__source verify__paste"
            onSubmit={(event) => {
              event.preventDefault();
              send({ type: 'TEXT.CHECK' });
            }}
          >
            <label htmlFor={`${ids}-text`} className="verify__label">
              Or paste its text
            </label>
            <textarea
              id={`${ids}-text`}
              className="textarea verify__textarea"
              rows={6}
              spellCheck={false}
              value={text}
              placeholder='{ "format": "provenance.bid-receipt.v2", … }'
              aria-invalid={textError ? true : undefined}
              aria-describedby={textError ? `${ids}-text-error` : undefined}
              onChange={(event) => send({ type: 'TEXT.CHANGE', value: event.target.value })}
            />
            {textError && (
              <p id={`${ids}-text-error`} className="field__error verify__error" role="alert" data-testid="text-error">
                {textError}
              </p>
            )}
            <button type="submit" className="button button--primary">
              Check the text
            </button>
          </form>
        </div>
      </section>

      {receipts && source && <Results key={reading} receipts={receipts} source={source} />}
    </div>
  );
}

/** Every receipt read, each checked at once; the heading takes the focus, so a keyboard or screen reader user lands on the results. */
function Results({ receipts, source }: { receipts: readonly AnyBidReceipt[]; source: ReceiptsSource }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const ids = useId();
  useEffect(() => heading.current?.focus(), []);
  const count = `${receipts.length} ${receipts.length === 1 ? 'receipt' : 'receipts'}`;
  return (
    <section className="verify__results" aria-labelledby={`${ids}-results`}>
      <h2 id={`${ids}-results`} ref={heading} tabIndex={-1} className="verify__section-title">
        {source.kind === 'file' ? `${count} from ${source.name}` : `${count} pasted`}
      </h2>
      <ol className="verify__list">
        {receipts.map((receipt, index) => (
          <ReceiptResult key={index} receipt={receipt} />
        ))}
      </ol>
    </section>
  );
}

function ReceiptResult({ receipt }: { receipt: AnyBidReceipt }) {
  const [snapshot, send] = useMachine(receiptCheckMachine, { input: { receipt, atOnce: true } });
  const checking = snapshot.matches('checking');
  return (
    <li className="card verify__receipt" data-testid="verified-receipt">
      <div className="verify__receipt-head">
        <p className="verify__amount">{formatUsd(receipt.amount)}</p>
        {/* Never disabled while it checks, so that the focus stays on it; a press then changes nothing. */}
        <button type="button" className="button verify__again" aria-busy={checking} onClick={() => send({ type: 'CHECK' })}>
          {checking ? 'Checking…' : 'Check again'}
          <span className="visually-hidden"> the {formatUsd(receipt.amount)} receipt</span>
        </button>
      </div>
      <dl className="verify__facts">
        <div>
          <dt>Placed</dt>
          <dd>
            <time dateTime={receipt.placedAt}>{formatReceiptTime(receipt.placedAt)}</time>
          </dd>
        </div>
        <div>
          <dt>Auction</dt>
          <dd className="verify__id">{receipt.auctionId}</dd>
        </div>
        <div>
          <dt>Bid</dt>
          <dd className="verify__id">{receipt.bidId}</dd>
        </div>
        <div>
          <dt>Event</dt>
          <dd>
            Revision {receipt.revision}, hash{' '}
            <code title={receipt.hash}>
              <span aria-hidden="true">{shortHash(receipt.hash)}</span>
              <span className="visually-hidden">{receipt.hash}</span>
            </code>
          </dd>
        </div>
      </dl>
      <ReceiptCheckResult snapshot={snapshot} />
    </li>
  );
}
