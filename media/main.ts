// Webview entry point (bundled by esbuild into dist/webview.js + dist/webview.css).
import './styles/base.css';
import './styles/header.css';
import './styles/transcript.css';
import './styles/cards.css';
import './styles/composer.css';
import { configureProtocolForCsp } from '../src/protocol/index.js';
import { App } from './app.js';
import { hostApi } from './vscode-api.js';

configureProtocolForCsp();
const root = document.getElementById('keel-root') ?? document.body;
const app = new App({ host: hostApi(), root });
window.addEventListener('message', (event: MessageEvent) => app.receive(event.data));
app.start();
