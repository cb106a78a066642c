import { WalletModule } from '@exchange/wallet';
import { exitOnFailure, runServiceApp } from '@exchange/platform';

runServiceApp({ service: 'wallet', module: WalletModule }).catch(exitOnFailure('wallet'));
