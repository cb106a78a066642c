import type { ContractCommand, ContractEvent } from '@exchange/contracts';
import { LedgerRejection } from '../ledger-rejection';
import { applyAdl, collectAdlCandidates, receiveAdlCandidates } from './contract-adl';
import { type ContractContext, sequenced } from './contract-decision';
import { continueFunding, seedInsuranceFund, settleFunding } from './contract-funding';
import { continueLiquidation, liquidateAfterCancel, markContractPrice } from './contract-liquidation';
import { triggerContractStops } from './contract-stops';
import { fillContractOrder } from './contract-fills';
import { creditContractAccount, debitContractAccount, markPriced, modifyPositionMargin } from './contract-margin';
import { endContractOrder, placeContractOrder } from './contract-orders';
import type { ContractsState } from './contract-state';

export interface ContractRejection {
  code: number;
  msg: string;
}

export type ContractDecision = { events: ContractEvent[] } | { rejection: ContractRejection };

/**
 * The contracts decider: the events one command causes, or its rejection with the family's code.
 * Pure: it reads the state and changes nothing; evolveContracts applies what it decided.
 */
export function decideContract(
  command: ContractCommand,
  state: ContractsState,
  ctx: ContractContext,
): ContractDecision {
  try {
    return { events: decideEvents(command, state, sequenced(ctx)) };
  } catch (error) {
    if (!(error instanceof LedgerRejection)) throw error;
    return { rejection: { code: error.code, msg: error.message } };
  }
}

function decideEvents(command: ContractCommand, state: ContractsState, ctx: ContractContext): ContractEvent[] {
  switch (command.type) {
    case 'CreditContractAccount':
      return creditContractAccount(command, state, ctx);
    case 'DebitContractAccount':
      return debitContractAccount(command, state, ctx);
    case 'PlaceContractOrder':
      return placeContractOrder(command, state, ctx);
    case 'FillContractOrder':
      return fillContractOrder(command, state, ctx);
    case 'EndContractOrder': {
      const ended = endContractOrder(command, state, ctx);
      return [...ended, ...liquidateAfterCancel(command, state, ended, ctx)];
    }
    case 'ModifyPositionMargin':
      return modifyPositionMargin(command, state, ctx);
    case 'SeedInsuranceFund':
      return seedInsuranceFund(command, state, ctx);
    case 'SettleFunding':
      return settleFunding(command, state, ctx);
    case 'MarkContractPrice': {
      // Decided against the state before the new mark is kept: only modifyMargin reads the kept one.
      const caused = markContractPrice(command, state, ctx);
      return [...markPriced(command, state, ctx), ...caused];
    }
    case 'ContinueFunding':
      return continueFunding(command, state, ctx);
    case 'ContinueLiquidation':
      return continueLiquidation(command, state, ctx);
    case 'TriggerContractStops':
      return triggerContractStops(command, state, ctx);
    case 'CollectAdlCandidates':
      return collectAdlCandidates(command, state, ctx);
    case 'AdlCandidates':
      return receiveAdlCandidates(command, state, ctx);
    case 'ApplyAdl':
      return applyAdl(command, state, ctx);
    default: {
      const unexpected: never = command;
      throw new Error(`contracts: unknown command ${String((unexpected as { type: unknown }).type)}`);
    }
  }
}
