export * from './account/account.schemas';
export * from './admin/admin.service';
export * from './api-gateway.module';
export * from './auth/signature';
export { withdrawalOrderSchema, depositOrderViewSchema } from './wallet/wallet-views';
