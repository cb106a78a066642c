import { render } from 'preact';
import { TradeApp } from './trade-app';
import '../shared/page.css';

render(<TradeApp />, document.getElementById('app')!);
