import { App, message as staticMessage } from 'antd';

type AppApi = ReturnType<typeof App.useApp>;

let api: AppApi | null = null;

/** The antd App context gives themed, localised toasts; code outside React (the HTTP client) reaches it here. */
function registerFeedback(next: AppApi | null): void {
  api = next;
}

function message() {
  return api?.message ?? staticMessage;
}

export const feedback = {
  success: (text: string) => void message().success(text),
  error: (text: string) => void message().error(text),
  warning: (text: string) => void message().warning(text),
  info: (text: string) => void message().info(text),
};

export function FeedbackBridge(): null {
  registerFeedback(App.useApp());
  return null;
}
