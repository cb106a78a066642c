import { runService } from '@exchange/bootstrap';
import { LedgerModule } from '@exchange/ledger';

runService({ service: 'ledger', module: LedgerModule, needsDatabase: true });
