import { LedgerModule } from '@exchange/ledger';
import { exitOnFailure, runServiceApp } from '@exchange/platform';

runServiceApp({ service: 'ledger', module: LedgerModule }).catch(exitOnFailure('ledger'));
