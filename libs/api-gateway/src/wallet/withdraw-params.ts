import Decimal from 'decimal.js';
import { type AssetConfig, chainOf, type Markets, walletSettingsOf } from '@exchange/contracts';
import { ApiError, ErrorCode, parseDecimalParam } from '@exchange/platform';
import type { WithdrawParams } from './wallet.endpoints';

const CLIENT_ORDER_ID = /^[A-Za-z0-9_\-:.]{1,64}$/;

export interface WithdrawRequest {
  asset: AssetConfig;
  clientOrderId: string;
  address: string;
  addressExt: string;
  chainType: string;
  /** Normalised: no trailing zeros, so "1.50" and "1.5" are the same request. */
  quantity: string;
}

/**
 * POST /openapi/v1/withdraw's parameters (spec 4.3.14, API-DECISIONS.md): tokenId, clientOrderId,
 * address and withdrawalQuantity required; the quantity within the asset's precision and at least
 * its minimum; chainType one of the asset's chains (the first by default, OMNI for USDT), ignored
 * for an asset with only its own chain.
 */
export function parseWithdraw(params: WithdrawParams, markets: Markets): WithdrawRequest {
  const { tokenId, clientOrderId, address, addressExt = '' } = params;
  const asset = markets.asset(tokenId);
  if (!asset) throw ApiError.invalid('tokenId', `unknown token ${tokenId}`);
  if (!CLIENT_ORDER_ID.test(clientOrderId))
    throw ApiError.invalid('clientOrderId', 'up to 64 letters, digits, _ - : .');
  if (address.length > 200) throw ApiError.invalid('address', 'at most 200 characters');
  if (addressExt.length > 200) throw ApiError.invalid('addressExt', 'at most 200 characters');
  const quantity = parseDecimalParam('withdrawalQuantity', params.withdrawalQuantity, asset.precision);
  const settings = walletSettingsOf(asset);
  if (quantity.lt(settings.minWithdraw))
    throw ApiError.invalid(
      'withdrawalQuantity',
      `the minimum ${asset.asset} withdrawal is ${new Decimal(settings.minWithdraw).toFixed()}`,
    );
  const chainType = chainOf(asset, params.chainType);
  if (chainType === undefined)
    throw new ApiError(
      ErrorCode.INVALID_PARAM_VALUE,
      `Invalid value for parameter 'chainType': ${asset.asset} moves on ${settings.chains.join(', ')}.`,
    );
  return { asset, clientOrderId, address, addressExt, chainType, quantity: quantity.toFixed() };
}
