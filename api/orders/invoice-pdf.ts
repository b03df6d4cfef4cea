import PDFDocument from 'pdfkit';
import type { Order } from '../contracts/orders';
import { invoiceLines, INVOICE_TAX_NOTE, ORDER_STATUS_LABELS } from '../contracts/invoice';

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const day = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });
const countryName = new Intl.DisplayNames(['en'], { type: 'region' });

const INK = '#1a1a1a';
const MUTED = '#555555';
const RULE = '#bbbbbb';

/**
 * The invoice as a PDF (pdfkit: maintained, no browser, the standard fonts need no files). The same
 * lines as the printable page (contracts/invoice.ts), laid out for Letter paper.
 */
export function invoicePdf(order: Order): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'LETTER',
    margin: 56,
    info: { Title: `Invoice ${order.orderNumber}`, Author: 'Provenance', Subject: order.listing.title },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const left = doc.page.margins.left;
  const width = doc.page.width - doc.page.margins.left - doc.page.margins.right;

  doc.fillColor(INK).font('Helvetica-Bold').fontSize(22).text('Provenance', left, 56);
  doc.font('Helvetica').fontSize(9).fillColor(MUTED).text('Authenticated sports memorabilia, sold at live auction');
  doc.font('Helvetica-Bold').fontSize(16).fillColor(INK).text(`Invoice ${order.orderNumber}`, left, 56, { width, align: 'right' });
  doc.font('Helvetica').fontSize(9).fillColor(MUTED);
  // Issued when the order was placed: the same date however often it is downloaded.
  doc.text(`Issued ${day.format(new Date(order.placedAt))}`, { width, align: 'right' });
  doc.text(`Status: ${ORDER_STATUS_LABELS[order.status]}`, { width, align: 'right' });

  doc.moveDown(2);
  const top = doc.y;
  heading(doc, 'Billed to', left, top);
  doc.font('Helvetica').fontSize(10).fillColor(INK);
  if (order.billedTo) doc.text(order.billedTo.name, left).text(order.billedTo.email);
  if (order.shippingAddress) {
    heading(doc, 'Ships to', left + width / 2, top);
    const address = order.shippingAddress;
    const lines = [address.name, address.line1, address.line2, [address.city, address.region, address.postalCode].filter(Boolean).join(', '), countryName.of(address.country) ?? address.country];
    doc.font('Helvetica').fontSize(10).fillColor(INK);
    for (const line of lines.filter(Boolean)) doc.text(line!, left + width / 2);
  }

  doc.moveDown(2);
  doc.x = left;
  heading(doc, 'Item', left, doc.y);
  doc.font('Helvetica').fontSize(11).fillColor(INK).text(order.listing.title, left, doc.y, { width });
  if (order.listing.nfcUid) doc.fontSize(9).fillColor(MUTED).text(`NFC tag ${order.listing.nfcUid}`);
  doc.fontSize(9).fillColor(MUTED).text(`${order.secondChance ? 'Bought through a second-chance offer' : 'Won'} ${day.format(new Date(order.placedAt))}`);

  doc.moveDown(1.5);
  rule(doc, left, width);
  for (const line of invoiceLines(order)) {
    const y = doc.y + 6;
    doc.font(line.emphasis ? 'Helvetica-Bold' : 'Helvetica').fontSize(line.emphasis ? 12 : 10).fillColor(INK);
    doc.text(line.label, left, y, { width: width - 120 });
    doc.text(usd.format(line.amount), left + width - 120, y, { width: 120, align: 'right' });
    if (line.ruleAfter) {
      doc.moveDown(0.3);
      rule(doc, left, width);
    }
  }
  doc.moveDown(0.8);
  doc.font('Helvetica-Oblique').fontSize(8.5).fillColor(MUTED).text(INVOICE_TAX_NOTE, left, doc.y, { width });

  if (order.payments.length > 0) {
    doc.moveDown(1.5);
    heading(doc, 'Payments received', left, doc.y);
    doc.font('Helvetica').fontSize(10).fillColor(INK);
    for (const payment of order.payments) {
      const y = doc.y;
      doc.text(`${day.format(new Date(payment.receivedAt))} · Bank transfer · ref. ${payment.reference}`, left, y, { width: width - 120 });
      doc.text(usd.format(payment.amount), left + width - 120, y, { width: 120, align: 'right' });
    }
  }

  if (order.howToPay) {
    doc.moveDown(1.5);
    heading(doc, `How to pay: ${order.howToPay.title}`, left, doc.y);
    doc.font('Helvetica').fontSize(10).fillColor(INK);
    doc.text(`Due by ${day.format(new Date(order.paymentDueAt))}.`, left, doc.y, { width });
    for (const step of order.howToPay.steps) doc.text(`•  ${step}`, { width });
    doc.moveDown(0.5);
    for (const detail of order.howToPay.details) {
      const y = doc.y;
      doc.font('Helvetica').fillColor(MUTED).text(detail.label, left, y, { width: 160 });
      doc.font('Helvetica-Bold').fillColor(INK).text(detail.value, left + 170, y, { width: width - 170 });
    }
  }

  if (order.carrier && order.trackingNumber) {
    doc.moveDown(1.5);
    heading(doc, 'Shipment', left, doc.y);
    doc.font('Helvetica').fontSize(10).fillColor(INK).text(`${order.carrier}, tracking ${order.trackingNumber}`, left, doc.y, { width });
  }

  doc.end();
  return done;
}

function heading(doc: PDFKit.PDFDocument, text: string, x: number, y: number): void {
  doc.font('Helvetica-Bold').fontSize(9).fillColor(MUTED).text(text.toUpperCase(), x, y, { characterSpacing: 0.5 });
  doc.moveDown(0.3);
}

function rule(doc: PDFKit.PDFDocument, left: number, width: number): void {
  doc.moveTo(left, doc.y).lineTo(left + width, doc.y).lineWidth(0.5).strokeColor(RULE).stroke();
}
