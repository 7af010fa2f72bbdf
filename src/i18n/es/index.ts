// Every catalogue of this language: the server's (rendering, e-mails) and the type of all messages.
import core from './core.js';
import guides from './guides.json' with { type: 'json' };
import legal from './legal.json' with { type: 'json' };
import mail from './mail.json' with { type: 'json' };
import team from './team.json' with { type: 'json' };

export default { ...core, legal, guides, mail, team };
