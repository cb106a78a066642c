export * from './account/account.schemas';
export * from './admin/admin.service';
export * from './api-gateway.module';
export * from './auth/signature';
export { adminDepositSchema, withdrawalOrderSchema, depositOrderViewSchema } from './wallet/wallet-views';
export { auditRecordSchema, userListSchema } from './admin/admin-listings.controller';
