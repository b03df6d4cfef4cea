import { useMachine } from '@xstate/react';
import { useEffect, useId, useRef, useState } from 'react';
import { useDropzone, type FileRejection } from 'react-dropzone';
import { Link } from 'react-router';
import type { BulkImportResult } from '../../../../../api/contracts/admin/bulk-import';
import { Banner } from '../../../components/Banner';
import { errorMessage } from '../../../lib/api-client';
import { saveFile } from '../../../lib/download';
import { BackToDashboard } from '../AdminShell';
import { editPath } from '../tables/listing-links';
import { fetchTemplate } from './bulk-import-api';
import { ACCEPTED_EXTENSIONS, bulkImportMachine, MAX_FILE_MEGABYTES, percentSent } from './bulk-import-machine';
import { EXPECTED_FORMAT } from './expected-format';
import { failedRowsCsv, failedRowsFilename } from './failed-rows-csv';
import './bulk-import.css';


/** The chooser's types: by extension, and by the MIME types browsers give these files. */
const ACCEPT = {
  'text/csv': ['.csv'],
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': ['.xlsx'],
  'application/vnd.ms-excel': ['.xls'],
};

const ACCEPTED_LIST = `${ACCEPTED_EXTENSIONS.slice(0, -1).join(', ')} or ${ACCEPTED_EXTENSIONS.at(-1)}`;

/** The drop zone's refusal, in words the admin can act on. */
function refusalMessage(rejections: readonly FileRejection[]): string {
  const codes = new Set(rejections.flatMap((rejection) => rejection.errors.map((error) => error.code)));
  if (codes.has('too-many-files')) return 'Choose one file at a time';
  if (codes.has('file-invalid-type')) return `Only ${ACCEPTED_LIST} files can be imported`;
  if (codes.has('file-too-large')) return `File is larger than ${MAX_FILE_MEGABYTES} MB`;
  return rejections[0]?.errors[0]?.message ?? 'This file cannot be imported';
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** /admin/bulk-import: a spreadsheet of jerseys in, draft listings and the refused rows out. */
export function BulkImportPage() {
  const [snapshot, send] = useMachine(bulkImportMachine);
  const { file, progress, result, error } = snapshot.context;
  const uploading = snapshot.matches('uploading');
  const ids = useId();

  const { getRootProps, getInputProps, open, isDragActive } = useDropzone({
    accept: ACCEPT,
    maxSize: MAX_FILE_MEGABYTES * 1024 * 1024,
    multiple: false,
    // The button below opens the chooser; the zone takes drops only, so there is one control to reach.
    noClick: true,
    noKeyboard: true,
    disabled: uploading,
    onDrop: (accepted, rejected) => {
      const [chosen] = accepted;
      if (chosen) send({ type: 'CHOOSE', file: chosen });
      else if (rejected.length > 0) send({ type: 'REFUSE', message: refusalMessage(rejected) });
    },
  });

  const percent = percentSent(progress);
  return (
    <>
      <div className="bulk-import__head">
        <h1 className="admin__title">Bulk Import</h1>
        <BackToDashboard />
      </div>
      <p className="muted bulk-import__intro">
        Import jersey listings from a spreadsheet. Each valid row becomes a draft listing, ready for photos, an NFC tag and publishing; a row
        with problems creates nothing and is listed below with its errors.
      </p>

      <section className="card bulk-import__upload" aria-labelledby={`${ids}-upload`}>
        <h2 id={`${ids}-upload`} className="bulk-import__section-title">
          Upload a spreadsheet
        </h2>
        <div {...getRootProps({ className: `bulk-import__dropzone${isDragActive ? ' bulk-import__dropzone--active' : ''}` })}>
          <input {...getInputProps({ 'aria-label': 'Spreadsheet file' })} data-testid="bulk-import-file" />
          <p className="bulk-import__drop-text">{isDragActive ? 'Drop the file here' : 'Drag and drop a spreadsheet here, or'}</p>
          <button type="button" className="button" onClick={open} disabled={uploading}>
            Choose File
          </button>
          <p className="field__hint">
            {ACCEPTED_LIST} · at most {MAX_FILE_MEGABYTES} MB and 1,000 rows · header row first
          </p>
        </div>

        {file && !snapshot.matches('done') && (
          <div className="bulk-import__file">
            <span>
              <span className="visually-hidden">Chosen file: </span>
              <strong>{file.name}</strong> <span className="muted">({formatBytes(file.size)})</span>
            </span>
            {!uploading && (
              <button type="button" className="button bulk-import__remove" onClick={() => send({ type: 'CLEAR' })} aria-label={`Remove ${file.name}`}>
                Remove
              </button>
            )}
          </div>
        )}

        {error && <Banner kind="error">{snapshot.matches('failed') ? `Bulk import failed: ${error}` : error}</Banner>}

        {uploading && (
          <div className="bulk-import__progress">
            <label htmlFor={`${ids}-progress`}>{percent < 100 ? `Uploading… ${percent}%` : 'Processing rows…'}</label>
            <progress id={`${ids}-progress`} max={100} value={percent}>
              {percent}%
            </progress>
          </div>
        )}

        <div className="bulk-import__actions">
          <button
            type="button"
            className="button button--primary"
            disabled={!(snapshot.matches('chosen') || snapshot.matches('failed'))}
            onClick={() => send({ type: 'UPLOAD' })}
          >
            {uploading ? 'Uploading…' : 'Upload & Process'}
          </button>
          <DownloadTemplateButton />
        </div>
      </section>

      {result && file && <ImportResult result={result} sourceName={file.name} onImportAnother={() => send({ type: 'CLEAR' })} />}

      <ExpectedFormat />
    </>
  );
}

/** GET the template with the admin's token, then hand it to the browser to save. */
function DownloadTemplateButton() {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  return (
    <>
      <button
        type="button"
        className="button"
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          setFailure(null);
          try {
            const template = await fetchTemplate();
            saveFile(template.contents, template.filename);
          } catch (error) {
            setFailure(`Failed to download the template: ${errorMessage(error, 'Network error')}`);
          } finally {
            setBusy(false);
          }
        }}
      >
        Download Template
      </button>
      {failure && <Banner kind="error">{failure}</Banner>}
    </>
  );
}

function ImportResult({ result, sourceName, onImportAnother }: { result: BulkImportResult; sourceName: string; onImportAnother: () => void }) {
  const ids = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  // The result replaces the progress bar: focus moves to it so that a keyboard or screen reader user lands on the outcome.
  useEffect(() => heading.current?.focus(), []);
  const rows = (count: number) => `${count} ${count === 1 ? 'row' : 'rows'}`;
  return (
    <section className="card bulk-import__result" aria-labelledby={`${ids}-result`}>
      <h2 id={`${ids}-result`} ref={heading} tabIndex={-1} className="bulk-import__section-title">
        Import result
      </h2>
      <p className="muted bulk-import__source">From {sourceName}</p>
      <Banner kind={result.created > 0 ? 'success' : 'error'}>
        {result.created > 0
          ? `${result.created} of ${rows(result.totalRows)} imported as draft listings${result.failed > 0 ? `; ${rows(result.failed)} refused` : ''}.`
          : `No listing was created: all ${rows(result.totalRows)} were refused.`}
      </Banner>

      {result.listings.length > 0 && (
        <>
          <h3 className="bulk-import__subtitle">Created listings</h3>
          <p className="muted">Drafts without photos: open one to add its photos and save it, then bind its NFC tag and publish.</p>
          <div className="bulk-import__scroll" role="region" aria-label="Created listings" tabIndex={0}>
            <table className="bulk-import__table">
              <thead>
                <tr>
                  <th scope="col">Row</th>
                  <th scope="col">Listing</th>
                </tr>
              </thead>
              <tbody>
                {result.listings.map((listing) => (
                  <tr key={listing.listingId}>
                    <td>{listing.row}</td>
                    <td>
                      <Link to={editPath(listing.listingId)}>{listing.slug}</Link>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}

      {result.errors.length > 0 && (
        <>
          <div className="bulk-import__refused-head">
            <h3 className="bulk-import__subtitle">Refused rows</h3>
            <button
              type="button"
              className="button"
              onClick={() => saveFile(new Blob(['\uFEFF', failedRowsCsv(result)], { type: 'text/csv;charset=utf-8' }), failedRowsFilename(sourceName))}
            >
              Download failed rows
            </button>
          </div>
          <p className="muted">
            The download holds the header and just these rows, as read: fix them and import that file again. Cells that start with = + - or @
            get a leading ' so that no spreadsheet runs them as formulas.
          </p>
          <div className="bulk-import__scroll" role="region" aria-label="Refused rows" tabIndex={0}>
            <table className="bulk-import__table" data-testid="refused-rows">
              <thead>
                <tr>
                  <th scope="col">Row</th>
                  <th scope="col">Problems</th>
                </tr>
              </thead>
              <tbody>
                {result.errors.map((refused) => (
                  <tr key={refused.row}>
                    <td>{refused.row}</td>
                    <td>
                      <ul className="bulk-import__problems">
                        {refused.errors.map((problem) => (
                          <li key={`${problem.column}:${problem.message}`}>
                            <code>{problem.column}</code>: {problem.message}
                          </li>
                        ))}
                      </ul>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}

      <button type="button" className="button" onClick={onImportAnother}>
        Import another file
      </button>
    </section>
  );
}

function ExpectedFormat() {
  const ids = useId();
  return (
    <section className="card bulk-import__format" aria-labelledby={`${ids}-format`}>
      <h2 id={`${ids}-format`} className="bulk-import__section-title">
        Expected format
      </h2>
      <p className="muted">
        The first row names the columns, in any order and any case; the required ones must be there. Download the template for a file that
        imports as it stands.
      </p>
      <div className="bulk-import__scroll" role="region" aria-labelledby={`${ids}-format`} tabIndex={0}>
        <table className="bulk-import__table">
          <thead>
            <tr>
              <th scope="col">Column</th>
              <th scope="col">Required</th>
              <th scope="col">Accepts, with an example</th>
            </tr>
          </thead>
          <tbody>
            {EXPECTED_FORMAT.map((row) => (
              <tr key={row.column}>
                <th scope="row">
                  <code>{row.column}</code>
                </th>
                <td>{row.required ? 'Yes' : 'No'}</td>
                <td>
                  {row.accepts}
                  <span className="bulk-import__example">e.g. {row.example}</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
