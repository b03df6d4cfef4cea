# The API (Fastify) as run by docker-compose.yml; configuration comes from the environment.
FROM node:22-bookworm-slim

WORKDIR /app

# Dependencies first, so that a source change does not reinstall them.
COPY package.json package-lock.json ./
RUN npm ci

COPY . .

ENV NODE_ENV=production
EXPOSE 3000
CMD ["npm", "start"]
