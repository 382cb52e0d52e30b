import { Global, Module } from '@nestjs/common';
import { MailSweeper } from './mail-sweeper';
import { MailTemplates } from './mail-templates';
import { MailService } from './mail.service';

@Global()
@Module({ providers: [MailService, MailTemplates, MailSweeper], exports: [MailService, MailTemplates] })
export class MailModule {}
