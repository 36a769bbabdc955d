import { defineLocale } from '../../platform/i18n/feature-locale.ts';

export default defineLocale({
  'zh-CN': {
    filePreview: {
      title: '文件预览',
      fullScreen: '全屏',
      exitFullScreen: '退出全屏',
      close: '关闭',
      download: '下载文件',
      loading: '正在加载文件…',
      renderFailed: '文件渲染失败',
      loadFailed: '文件加载失败',
      downloadFailed: '文件下载失败',
      unsupportedTitle: '提示',
      unsupported: '该文件不支持预览，确定下载此文件',
      confirmDownload: '确定下载',
      emptySheet: '此工作表为空',
      clipped: '仅显示前 {{rows}} 行、{{columns}} 列，完整内容请下载文件查看',
    },
  },
  en: {
    filePreview: {
      title: 'File preview',
      fullScreen: 'Full screen',
      exitFullScreen: 'Exit full screen',
      close: 'Close',
      download: 'Download file',
      loading: 'Loading the file…',
      renderFailed: 'The file could not be rendered',
      loadFailed: 'The file could not be loaded',
      downloadFailed: 'The file could not be downloaded',
      unsupportedTitle: 'Notice',
      unsupported: 'This file cannot be previewed. Download it?',
      confirmDownload: 'Download',
      emptySheet: 'This sheet is empty',
      clipped:
        'Only the first part is shown (rows: {{rows}}, columns: {{columns}}); download the file to see all of it',
    },
  },
  'zh-TW': {
    filePreview: {
      title: '檔案預覽',
      fullScreen: '全螢幕',
      exitFullScreen: '退出全螢幕',
      close: '關閉',
      download: '下載檔案',
      loading: '正在載入檔案…',
      renderFailed: '檔案渲染失敗',
      loadFailed: '檔案載入失敗',
      downloadFailed: '檔案下載失敗',
      unsupportedTitle: '提示',
      unsupported: '該檔案不支援預覽，確定下載此檔案',
      confirmDownload: '確定下載',
      emptySheet: '此工作表為空',
      clipped: '僅顯示前 {{rows}} 列、{{columns}} 欄，完整內容請下載檔案查看',
    },
  },
});
