import { runService } from '@exchange/bootstrap';
import { WalletModule } from '@exchange/wallet';

runService({ service: 'wallet', module: WalletModule, needsDatabase: true });
