import { buffer } from 'node:stream/consumers';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bulkImportResultSchema, TEMPLATE_COLUMNS, type CellError } from '../../contracts/admin/bulk-import';
import { errorResponses } from '../../contracts/common';
import type { AppDependencies } from '../../dependencies';
import { HttpError } from '../../http/errors';
import { receiveFilePart } from '../../http/multipart-file';
import { listingStreamId } from '../../../engine/domain';
import { readModelsCaughtUpWith } from '../../read-after-write';
import { createListing, type CreatedListing } from '../listings/create-listing';
import { jerseyListingDetails, jerseySlugParts } from '../listings/jersey-form';
import { readHeader, validateRow } from './columns';
import { MAX_DATA_ROWS, readSheetRows, sheetFormatOf, type SheetCell } from './read-sheet';
import { TEMPLATE_FILENAME, templateCsv } from './template';

const MAX_FILE_MEGABYTES = 10;
const MAX_FILE_BYTES = MAX_FILE_MEGABYTES * 1024 * 1024;
const FILE_FIELD = 'file';

/** Bulk import of jersey listings from a spreadsheet, and the template to fill in. */
export const adminBulkImportRoutes: FastifyPluginAsyncZod<{ deps: AppDependencies }> = async (app, { deps }) => {
  app.get(
    '/api/admin/bulk-import/template',
    {
      schema: {
        tags: ['admin'],
        summary: `The bulk import template: ${TEMPLATE_FILENAME}, the header row and one sample row`,
        security: [{ bearer: [] }],
        produces: ['text/csv'],
        response: { 200: z.string().describe(`CSV with the columns ${TEMPLATE_COLUMNS.join(', ')}`), ...errorResponses(401, 403) },
      },
    },
    async (_request, reply) =>
      reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${TEMPLATE_FILENAME}"`)
        .send(templateCsv()),
  );

  app.post(
    '/api/admin/bulk-import',
    {
      config: { upload: 'bulk_import' },
      preHandler: app.limitRate('bulkImport'),
      schema: {
        tags: ['admin'],
        summary: 'Import jersey listings from a .csv, .xlsx or .xls file (multipart, field "file", at most 10 MB)',
        description:
          `Columns as in the template (header row first, any case); at most ${MAX_DATA_ROWS} rows. Every row is checked as the ` +
          'jersey form checks it; each valid row becomes a DRAFT listing, an invalid row creates nothing and is listed with ' +
          'its row number and its errors. 201 when at least one listing was created, 200 when none was. A file that ' +
          'cannot be imported as a whole (unreadable, wrong type, unknown or missing columns, too many rows) creates ' +
          'nothing: 400, 413 "File is larger than 10 MB", or 415 for a type other than .csv, .xlsx, .xls.',
        security: [{ bearer: [] }],
        consumes: ['multipart/form-data'],
        response: { 200: bulkImportResultSchema, 201: bulkImportResultSchema, ...errorResponses(400, 401, 403, 413, 415, 429) },
      },
    },
    async (request, reply) => {
      const upload = await receiveUpload(request);
      const format = sheetFormatOf(upload.filename, upload.bytes);
      const [header, ...dataRows] = readSheetRows(format, upload.bytes);
      if (!header) throw new HttpError(400, 'The file is empty', 'EMPTY_FILE');
      if (dataRows.length === 0) throw new HttpError(400, 'The file has a header row but no rows to import', 'NO_ROWS');
      const layout = readHeader(header, dataRows);

      // Every row is checked before the first listing is created, so a refused file creates nothing.
      const checked = dataRows.map((row) => ({ row: row.row, cells: row.cells, ...validateRow(layout, row) }));
      const listings: (CreatedListing & { row: number })[] = [];
      const errors: { row: number; cells: string[]; errors: CellError[] }[] = [];
      for (const row of checked) {
        if ('errors' in row) {
          errors.push({ row: row.row, cells: row.cells.map(cellAsRead), errors: row.errors });
          continue;
        }
        // The request id is the correlation id of every listing: the whole import reads as one in the event log.
        const created = await createListing(
          deps,
          request.actor!,
          { details: jerseyListingDetails(row.form), mediaIds: [], slugParts: jerseySlugParts(row.form), save: false },
          request.id,
          { awaitReadModels: false },
        );
        listings.push({ row: row.row, ...created });
      }
      // The projections apply the log in order: once the last listing shows, they all do.
      const last = listings.at(-1);
      if (last) await readModelsCaughtUpWith(deps, listingStreamId(last.listingId));
      return reply
        .code(listings.length > 0 ? 201 : 200)
        .send({ totalRows: checked.length, created: listings.length, failed: errors.length, header: header.cells.map(cellAsRead), listings, errors });
    },
  );
};

/** A cell given back as the file holds it, so that a refused row can be fixed and imported again. */
const cellAsRead = (cell: SheetCell): string => (typeof cell === 'string' ? cell : cell.spreadsheetError);

/** The one file of the request, read whole within the size limit. */
async function receiveUpload(request: FastifyRequest): Promise<{ filename: string; bytes: Buffer }> {
  const fileRequired = () => new HttpError(400, `A file is required (field "${FILE_FIELD}")`, 'FILE_REQUIRED');
  if (!request.isMultipart()) throw fileRequired();
  const upload = await receiveFilePart(request, { fileSize: MAX_FILE_BYTES });
  if (!upload || upload.fieldname !== FILE_FIELD) {
    upload?.stream.resume();
    throw fileRequired();
  }
  const bytes = await buffer(upload.stream);
  if (upload.truncated()) throw new HttpError(413, `File is larger than ${MAX_FILE_MEGABYTES} MB`, 'FILE_TOO_LARGE');
  if (bytes.length === 0) throw new HttpError(400, 'The file is empty', 'EMPTY_FILE');
  return { filename: upload.filename, bytes };
}
