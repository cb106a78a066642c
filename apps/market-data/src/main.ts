import { runService } from '@exchange/bootstrap';
import { MarketDataModule } from '@exchange/market-data';

runService({ service: 'market-data', module: MarketDataModule, needsDatabase: true });
