import { Controller, Get, Param, Res, UseFilters } from '@nestjs/common';
import type { Response } from 'express';
import { Public } from 'src/core/auth/public.decorator';
import { PortalErrorFilter } from 'src/portal/portal-error.filter';
import { PortalPages } from 'src/portal/portal-pages';
import { PortalRecords } from 'src/portal/portal-records';
import { DocumentsService } from './documents.service';
import { invoicePdf } from './invoice-pdf';
import { sendPdf } from './pdf-response';
import { statementPdf } from './statement-pdf';

const UNKNOWN_INVOICE = 'This invoice link is not valid. Please use the latest link we sent you.';
const UNKNOWN_CUSTOMER = 'This statement link is not valid. Please use the latest link we sent you.';

/** The document links of the API (`url_permalink`, `url_pdflink`, `url_statementlink`): open to whoever holds the token. */
@Public()
@UseFilters(PortalErrorFilter)
@Controller('r')
export class DocumentsController {
  constructor(
    private readonly records: PortalRecords,
    private readonly documents: DocumentsService,
    private readonly pages: PortalPages,
  ) {}

  @Get('invoice/view/:token')
  async invoicePage(@Param('token') token: string, @Res() res: Response): Promise<void> {
    const invoice = await this.records.invoiceByToken(token);
    if (!invoice) return this.pages.error(res, 404, UNKNOWN_INVOICE);
    const doc = await this.documents.invoice(invoice);
    this.pages.send(res, 200, 'invoice', {
      title: `Invoice #${doc.number}`,
      doc,
      payUrl: invoice.url_paylink,
      pdfUrl: invoice.url_pdflink,
    });
  }

  @Get('invoice/pdf/:token')
  async invoicePdf(@Param('token') token: string, @Res() res: Response): Promise<void> {
    const invoice = await this.records.invoiceByToken(token);
    if (!invoice) return this.pages.error(res, 404, UNKNOWN_INVOICE);
    const doc = await this.documents.invoice(invoice);
    sendPdf(res, `invoice-${doc.number}.pdf`, await invoicePdf(doc));
  }

  @Get('statement/i/:token')
  async statementPage(@Param('token') token: string, @Res() res: Response): Promise<void> {
    const customer = await this.records.customerByToken(token);
    if (!customer) return this.pages.error(res, 404, UNKNOWN_CUSTOMER);
    const doc = await this.documents.statement(customer);
    this.pages.send(res, 200, 'statement', { title: 'Statement', doc, pdfUrl: `/r/statement/pdf/${token}` });
  }

  @Get('statement/pdf/:token')
  async statementPdf(@Param('token') token: string, @Res() res: Response): Promise<void> {
    const customer = await this.records.customerByToken(token);
    if (!customer) return this.pages.error(res, 404, UNKNOWN_CUSTOMER);
    sendPdf(
      res,
      `statement-${String(customer.customer_id)}.pdf`,
      await statementPdf(await this.documents.statement(customer)),
    );
  }
}
