// A configuration exercising every translated construct, the way users wrote them (legacy-valid).
export const CRAFTED = {
  client: {
    name: 'web-1',
    address: '10.0.0.1',
    subscriptions: ['web'],
    production: true,
    rack: 'r7',
    db: {
      host: 'db-1',
      password: 'hunter2',
      Port: 5432,
    },
    API_KEY: 'k-123',
    mysql: {
      user: 'u',
      secret: 's',
    },
    disk: {
      warning: 80,
    },
    '9lives': 'cat',
  },
  checks: {
    unpublished: {
      command: 'true',
      subscribers: ['web'],
      publish: false,
    },
    proxied: {
      command: 'ping :::address:::',
      subscribers: ['web'],
      interval: 60,
      source: ':::name:::-db',
    },
    'local-proxy': {
      command: 'true',
      standalone: true,
      interval: 60,
      source: 'switch-:::rack|r1:::',
    },
    six: {
      command: 'true',
      subscribers: ['web'],
      cron: '0 0 * * * 2020',
    },
    'last-day': {
      command: 'true',
      subscribers: ['web'],
      cron: '0 0 L * *',
    },
    'second-monday': {
      command: 'true',
      subscribers: ['web'],
      cron: '0 9 * * 1#2',
    },
    sunday: {
      command: 'true',
      subscribers: ['web'],
      cron: '0 0 * * 5-7',
    },
    both: {
      command: 'true',
      subscribers: ['web'],
      cron: '*/5 * * * *',
      interval: 30,
    },
    'short-ttl': {
      command: 'true',
      subscribers: ['web'],
      interval: 60,
      ttl: 30,
      timeout: 2.5,
    },
    'tiny-ttl': {
      command: 'true',
      subscribers: ['web'],
      cron: '* * * * *',
      ttl: 3,
    },
    quiet: {
      command: 'true',
      subscribers: ['web'],
      interval: 60,
      handler: 'mail',
      subdue: {
        days: {
          all: [
            {
              begin: '5:00 PM',
              end: '8:00 AM',
            },
          ],
          saturday: [
            {
              begin: '12:00 AM',
              end: '11:59 PM',
            },
          ],
        },
      },
    },
    metrics: {
      command: 'true',
      subscribers: ['web'],
      interval: 60,
      type: 'metric',
      handler: 'graphite',
    },
    sticky: {
      command: 'true',
      subscribers: ['web'],
      interval: 60,
      auto_resolve: false,
      handler: 'mail',
    },
    muted: {
      command: 'true',
      subscribers: ['web'],
      interval: 60,
      handle: false,
      handlers: ['mail'],
    },
    docker: {
      command: "docker inspect -f '{{.State.Running}}' :::name:::",
      subscribers: ['web'],
      interval: 60,
    },
    db: {
      command: 'check-db -h :::db.host::: -p :::db.password:::',
      subscribers: ['web'],
      interval: 60,
    },
    fleet: {
      command: 'true',
      subscribers: ['web'],
      interval: 60,
      proxy_requests: {
        client_attributes: {
          keepalives: false,
          production: true,
        },
      },
    },
    disk: {
      command: 'check-disk -w :::disk.warning|85::: -c :::disk.critical|95::: -h :::name:::',
      subscribers: ['web'],
      interval: 60,
      handler: 'pager',
      occurrences: 3,
    },
    digits: {
      command: 'echo :::9lives|x:::',
      subscribers: ['web'],
      interval: 60,
    },
  },
  filters: {
    'office-hours': {
      attributes: {
        check: {
          status: 2,
        },
      },
      when: {
        days: {
          monday: [
            {
              begin: '9:00 AM',
              end: '5:00 PM',
            },
          ],
        },
      },
    },
    'not-dev-web': {
      negate: true,
      attributes: {
        client: {
          environment: 'dev',
        },
        check: {
          team: 'web',
        },
      },
    },
    prod: {
      attributes: {
        client: {
          production: true,
        },
      },
    },
    lookahead: {
      attributes: {
        check: {
          output: 'eval: value =~ /^(?!OK)/',
        },
      },
    },
    anchored: {
      attributes: {
        check: {
          output: 'eval: value =~ /\\ACRITICAL\\z/',
        },
      },
    },
  },
  mutators: {
    tag: {
      command: 'tag',
      timeout: 1.5,
    },
  },
  handlers: {
    mail: {
      type: 'pipe',
      command: 'mail',
      filters: ['office-hours', 'not-dev-web', 'prod', 'lookahead'],
      mutator: 'missing',
      timeout: 0.5,
    },
    graphite: {
      type: 'tcp',
      socket: {
        host: 'g',
        port: 2003,
      },
      mutator: 'tag',
    },
    default: {
      type: 'set',
      handlers: ['mail'],
    },
    pager: {
      type: 'pipe',
      command: 'page',
      filters: ['occurrences'],
      severities: ['critical'],
    },
  },
};
