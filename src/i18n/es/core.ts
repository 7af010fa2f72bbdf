// The catalogues every page needs; page namespaces (legal, guides) load with their pages.
import catalog from './catalog.json' with { type: 'json' };
import common from './common.json' with { type: 'json' };
import contact from './contact.json' with { type: 'json' };
import errors from './errors.json' with { type: 'json' };
import home from './home.json' with { type: 'json' };
import invoice from './invoice.json' with { type: 'json' };
import order from './order.json' with { type: 'json' };
import orderStatus from './orderStatus.json' with { type: 'json' };
import tracking from './tracking.json' with { type: 'json' };
import withdrawal from './withdrawal.json' with { type: 'json' };

export default { common, home, catalog, order, errors, tracking, orderStatus, contact, invoice, withdrawal };
