// Entry of the chat webview bundle (dist/webview.js, an iife loaded with the page's nonce).
import { startChatApp } from './app';
import type { VsCodeApi } from './vscodeApi';

declare function acquireVsCodeApi(): VsCodeApi;

startChatApp(window, acquireVsCodeApi());
