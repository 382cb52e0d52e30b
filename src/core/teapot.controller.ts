import { Controller, Get } from '@nestjs/common';
import { ApiError } from './envelope/api-error';

/** `GET /api/v3/teapot`: 418, status "Teapot" (SPEC "Endpoints"). */
@Controller('api/v3/teapot')
export class TeapotController {
  @Get()
  teapot(): never {
    throw new ApiError(418, "I'm a teapot.");
  }
}
