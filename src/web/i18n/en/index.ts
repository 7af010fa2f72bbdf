import catalog from './catalog.json';
import common from './common.json';
import home from './home.json';

export default { common, home, catalog };
