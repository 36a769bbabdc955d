import dayjs from 'dayjs';

/** dayjs as `i18n.ts` fetches it: with the first page that shows dates, never with the login page. */
export { dayjs };
