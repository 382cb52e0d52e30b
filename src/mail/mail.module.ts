import { Global, Module } from '@nestjs/common';
import { MailTemplates } from './mail-templates';
import { MailService } from './mail.service';

@Global()
@Module({ providers: [MailService, MailTemplates], exports: [MailService, MailTemplates] })
export class MailModule {}
