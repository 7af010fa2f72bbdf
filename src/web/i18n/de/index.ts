import catalog from './catalog.json';
import common from './common.json';
import errors from './errors.json';
import home from './home.json';
import order from './order.json';
import orderStatus from './orderStatus.json';
import tracking from './tracking.json';

export default { common, home, catalog, order, errors, tracking, orderStatus };
