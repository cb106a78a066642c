import { applyDecorators, Controller, UseGuards, UseInterceptors } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { AdminTokenGuard } from './admin-token.guard';
import { OperatorAuditInterceptor } from './operator-audit.interceptor';

/** A controller of the operator API: under /admin/v1, behind the operator token, every call audited, documented as such. */
export function OperatorController(): ClassDecorator {
  return applyDecorators(
    ApiTags('operator'),
    ApiBearerAuth(),
    Controller('admin/v1'),
    UseGuards(AdminTokenGuard),
    UseInterceptors(OperatorAuditInterceptor),
  );
}
