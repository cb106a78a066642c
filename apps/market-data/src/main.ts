import { MarketDataModule } from '@exchange/market-data';
import { exitOnFailure, runServiceApp } from '@exchange/platform';

runServiceApp({ service: 'market-data', module: MarketDataModule }).catch(exitOnFailure('market-data'));
