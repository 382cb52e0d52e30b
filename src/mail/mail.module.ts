import { Global, Module } from '@nestjs/common';
import { MailSweeper } from './mail-sweeper';
import { MailTemplates } from './mail-templates';
import { MailService } from './mail.service';
import { TypeOrmModule } from '@nestjs/typeorm';
import { MailMessage } from './entities/mail-message.entity';

@Global()
@Module({
  imports: [TypeOrmModule.forFeature([MailMessage])],
  providers: [MailService, MailTemplates, MailSweeper],
  exports: [MailService, MailTemplates],
})
export class MailModule {}
